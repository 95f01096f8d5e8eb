// Prometheus names use base units (seconds, bytes) and `_ratio` for the report's shares,
// as Prometheus's naming guide asks; HELP says which report key each one is. The
// exposition text itself (escaping, summary lines, number formats) is prometheus-cpp's.
#include "metrics/prometheus_text.hpp"

#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include <cmath>
#include <map>
#include <sstream>

namespace vidpipe {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;
using Labels = std::vector<ClientMetric::Label>;

// A report number; null (a figure the device could not give) is NaN, as Prometheus writes it.
double number(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : std::nan("");
}

// A path's bytes need not be UTF-8 (a file named in Latin-1), and one invalid byte made the
// whole exposition invalid for Prometheus: such bytes become U+FFFD, as in the report.
std::string utf8_label(const std::string& bytes) {
  const std::string quoted = nlohmann::json(bytes).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return nlohmann::json::parse(quoted).get<std::string>();
}

class Families {
 public:
  MetricFamily& family(const std::string& name, MetricType type, const std::string& help) {
    for (auto& f : families_)
      if (f.name == name) return f;
    families_.push_back({name, help, type, {}});
    return families_.back();
  }
  // Labels every metric added from here on gets first (a service's `pipeline`).
  void set_base_labels(Labels labels) { base_ = std::move(labels); }
  void gauge(const std::string& name, const std::string& help, double value, Labels labels = {}) {
    ClientMetric m;
    m.label = with_base(std::move(labels));
    m.gauge.value = value;
    family(name, MetricType::Gauge, help).metric.push_back(std::move(m));
  }
  void counter(const std::string& name, const std::string& help, double value, Labels labels = {}) {
    ClientMetric m;
    m.label = with_base(std::move(labels));
    m.counter.value = value;
    family(name, MetricType::Counter, help).metric.push_back(std::move(m));
  }
  // A report stage entry ({mean_ms, p50_ms, p99_ms}) over `count` frames, in seconds.
  void summary(const std::string& name, const std::string& help, const nlohmann::json& stage, double count,
               Labels labels = {}) {
    ClientMetric m;
    m.label = with_base(std::move(labels));
    m.summary.sample_count = static_cast<std::uint64_t>(count);
    m.summary.sample_sum = number(stage, "mean_ms") * count / 1e3;
    m.summary.quantile = {{0.5, number(stage, "p50_ms") / 1e3}, {0.99, number(stage, "p99_ms") / 1e3}};
    family(name, MetricType::Summary, help).metric.push_back(std::move(m));
  }
  std::string text() const {
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, families_);
    return out.str();
  }

 private:
  Labels with_base(Labels labels) const {
    labels.insert(labels.begin(), base_.begin(), base_.end());
    return labels;
  }
  std::vector<MetricFamily> families_;
  Labels base_;
};

void add_run(Families& f, const nlohmann::json& r) {
  f.gauge("vidpipe_info", "the program, the mode and the device of this run (value 1)", 1,
          {{"version", r.value("vidpipe_version", "")}, {"mode", r.value("mode", "")}, {"device", r.value("device", "")}});
  f.counter("vidpipe_frames_total", "frames out of the sink (report: frames)", number(r, "frames"));
  f.counter("vidpipe_frames_dropped_total", "frames live inputs dropped (report: frames_dropped)",
            number(r, "frames_dropped"));
  f.counter("vidpipe_decode_errors_total", "packets the decoder rejected (report: decode_errors)",
            number(r, "decode_errors"));
  f.counter("vidpipe_faces_total", "faces found (report: faces)", number(r, "faces"));
  f.gauge("vidpipe_frames_per_second", "frames out per second after the warm-up (report: fps)", number(r, "fps"));
  f.gauge("vidpipe_recent_frames_per_second", "frames out per second over the last 5 s; 0 when frames stop "
          "(report: recent_fps)", number(r, "recent_fps"));
  f.gauge("vidpipe_copy_wait_ratio", "host time blocked on copies / wall time (report: copy_wait_share)",
          number(r, "copy_wait_share"));
  f.gauge("vidpipe_compute_wait_ratio", "host time blocked on kernels / wall time (report: compute_wait_share)",
          number(r, "compute_wait_share"));
  f.gauge("vidpipe_gpu_busy_ratio", "time the device worked on some frame / wall time (report: gpu_busy_share)",
          number(r, "gpu_busy_share"));
  f.gauge("vidpipe_h2d_bytes_per_second", "host-to-device copy rate while copying (report: h2d_GB_per_s)",
          number(r, "h2d_GB_per_s") * 1e9);
  f.gauge("vidpipe_d2h_bytes_per_second", "device-to-host copy rate while copying (report: d2h_GB_per_s)",
          number(r, "d2h_GB_per_s") * 1e9);
  f.gauge("vidpipe_warmup_included", "1 while the run is shorter than metrics.warmup_frames (figures not yet meaningful)",
          r.value("warmup_included", false) ? 1 : 0);
}

void add_stages(Families& f, const nlohmann::json& r) {
  const double measured = number(r, "frames_measured");
  // Named: items() refers into its json, which a temporary would not outlive.
  const nlohmann::json stages = r.value("stages", nlohmann::json::object());
  const nlohmann::json stage_shares = r.value("stage_shares", nlohmann::json::object());
  for (const auto& [stage, figures] : stages.items())
    f.summary("vidpipe_stage_seconds", "time per frame in each stage, after the warm-up (report: stages)", figures,
              measured, {{"stage", stage}});
  f.summary("vidpipe_latency_seconds", "decoded to written, per frame (report: latency)",
            r.value("latency", nlohmann::json::object()), measured);
  f.summary("vidpipe_live_lag_seconds", "how far behind its stream's clock a frame left the sink (report: live_lag)",
            r.value("live_lag", nlohmann::json::object()), measured);
  for (const auto& [stage, shares] : stage_shares.items())
    for (const char* state : {"busy", "starved", "blocked"})
      f.gauge("vidpipe_stage_ratio", "share of the measured window each stage was busy, starved or blocked "
              "(report: stage_shares)", number(shares, state), {{"stage", stage}, {"state", state}});
  const auto bottleneck = r.value("bottleneck", nlohmann::json::object());
  if (!bottleneck.value("stage", "").empty())
    f.gauge("vidpipe_bottleneck", "the stage that bounds the frame rate (value 1; report: bottleneck)", 1,
            {{"stage", bottleneck.value("stage", "")}});
}

void add_inputs(Families& f, const nlohmann::json& r) {
  const auto inputs = r.value("inputs", nlohmann::json::array());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const nlohmann::json& in = inputs[i];
    const Labels labels{{"input", std::to_string(i)}, {"uri", utf8_label(in.value("uri", ""))}};
    f.gauge("vidpipe_input_frames_per_second", "this input's frames out per second (report: inputs[].fps)",
            number(in, "fps"), labels);
    f.counter("vidpipe_input_frames_decoded_total", "frames decoded (report: inputs[].frames_decoded)",
              number(in, "frames_decoded"), labels);
    f.counter("vidpipe_input_frames_dropped_total", "frames dropped (report: inputs[].frames_dropped)",
              number(in, "frames_dropped"), labels);
    f.counter("vidpipe_input_frames_written_total", "frames written (report: inputs[].frames_written)",
              number(in, "frames_written"), labels);
    f.counter("vidpipe_input_reconnects_total", "reconnects (report: inputs[].reconnects)", number(in, "reconnects"),
              labels);
    f.counter("vidpipe_input_decode_errors_total", "packets rejected (report: inputs[].decode_errors)",
              number(in, "decode_errors"), labels);
  }
}

void add_memory(Families& f, const nlohmann::json& r) {
  const auto memory = r.value("memory", nlohmann::json::object());
  f.gauge("vidpipe_resident_memory_bytes", "the process's resident set (report: memory.rss_mib_at_end)",
          number(memory, "rss_mib_at_end") * (1 << 20));
  f.gauge("vidpipe_device_memory_bytes", "memory in use on the device (report: memory.device_mib_at_end)",
          number(memory, "device_mib_at_end") * (1 << 20));
}

void add_report(Families& families, const nlohmann::json& report) {
  add_run(families, report);
  add_stages(families, report);
  add_inputs(families, report);
  add_memory(families, report);
}

// A serving process: each pipeline's figures labelled with its id, and how many are in
// each state.
void add_service(Families& f, const nlohmann::json& service) {
  std::map<std::string, int> states{{"starting", 0}, {"running", 0}, {"ended", 0}, {"stopped", 0}, {"failed", 0}};
  for (const nlohmann::json& input : service.value("inputs", nlohmann::json::array())) ++states[input.value("state", "")];
  for (const auto& [state, count] : states)
    f.gauge("vidpipe_service_inputs", "a serving process's inputs in each state (report: inputs[].state)", count,
            {{"state", state}});
  const nlohmann::json pipelines = service.value("pipelines", nlohmann::json::object());
  for (const auto& [id, report] : pipelines.items()) {
    if (!report.is_object()) continue;  // still opening: no figures yet
    f.set_base_labels({{"pipeline", utf8_label(id)}});
    add_report(f, report);
  }
  f.set_base_labels({});
}

}  // namespace

std::string prometheus_text(const nlohmann::json& report) {
  Families families;
  if (report.value("kind", "") == "service")
    add_service(families, report);
  else
    add_report(families, report);
  return families.text();
}

}  // namespace vidpipe
