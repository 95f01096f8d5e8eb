#include "metrics/report.hpp"

#include "base/output_file.hpp"
#include "base/redact.hpp"
#include "sink/sink_config.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/errors.hpp"

namespace vidpipe {
namespace {

// The config as run, without the secrets of the URLs in it (base/redact.hpp).
nlohmann::json redacted_config_json(const Config& c) {
  nlohmann::json config = config_json(c);
  auto redact = [](nlohmann::json& value) {
    if (value.is_string()) value = redacted_uri(value.get<std::string>());
  };
  redact(config["input"]["uri"]);
  redact(config["sink"]["path"]);
  if (config["inputs"].is_array())
    for (nlohmann::json& uri : config["inputs"]) redact(uri);
  return config;
}

nlohmann::json stage_json(const StageStats& s) {
  return {{"mean_ms", s.mean_ms}, {"p50_ms", s.p50_ms}, {"p99_ms", s.p99_ms}};
}

nlohmann::json share_json(const StageShare& s) {
  return {{"busy", s.busy}, {"starved", s.starved}, {"blocked", s.blocked}};
}

nlohmann::json shares_json(const StageShares& s) {
  return {{"decode", share_json(s.decode)},     {"submit", share_json(s.submit)},
          {"upload", share_json(s.upload)},     {"compute", share_json(s.compute)},
          {"download", share_json(s.download)}, {"sink", share_json(s.sink)}};
}

}  // namespace

nlohmann::json make_report(const Config& c, const VideoInfo& input, const std::string& device,
                           const std::string& mode, const Summary& s, std::int64_t decode_errors) {
  return {
      // Which layout of the report (docs/REPORT.md): a script reading many reports can tell.
      {"schema_version", report_schema_version},
      {"input",
       {{"uri", input.uri}, {"codec", input.codec}, {"pixel_format", input.pixel_format},
        {"width", input.width}, {"height", input.height}, {"source_fps", input.fps}}},
      {"device", device},
      {"mode", mode},
      // Every key as the run used it, under the config's own names.
      {"config", redacted_config_json(c)},
      {"frames", s.frames},
      {"frames_measured", s.frames_measured},
      {"frames_dropped", s.frames_dropped},
      {"frames_dropped_measured", s.frames_dropped_measured},
      {"frames_sync_copies", s.frames_sync_copies},
      {"decode_errors", decode_errors},
      {"warmup_included", s.warmup_included},
      {"wall_s", s.wall_s},
      {"measured_s", s.measured_s},
      {"first_frame_s", s.first.delivered_s},
      {"fps", s.fps},
      {"copy_wait_share", s.copy_wait_share},
      {"compute_wait_share", s.compute_wait_share},
      {"gpu_busy_share", s.gpu_busy_share},
      {"h2d_GB_per_s", s.h2d_gbps},
      {"d2h_GB_per_s", s.d2h_gbps},
      {"h2d_bytes_per_frame", s.h2d_bytes_per_frame},
      {"d2h_bytes_per_frame", s.d2h_bytes_per_frame},
      {"stages",
       {{"decode", stage_json(s.decode)}, {"h2d", stage_json(s.h2d)}, {"compute", stage_json(s.compute)},
        {"preprocess", stage_json(s.preprocess)}, {"inference", stage_json(s.infer)},
        {"d2h", stage_json(s.d2h)}, {"sink", stage_json(s.sink)}}},
      {"latency", stage_json(s.latency)},
      {"bottleneck", {{"stage", s.bottleneck.stage}, {"evidence", s.bottleneck.evidence}, {"lift", s.bottleneck.lift}}},
      {"stage_shares", shares_json(s.shares)},
      {"live_lag", stage_json(s.live_lag)},
      {"live_lag_last_ms", s.live_lag_last_ms},
      {"faces", s.faces},
      {"frames_with_faces", s.frames_with_faces},
      {"frames_kept", s.frames_kept},
  };
}

nlohmann::json memory_json(const MemoryLog& log, const MemorySample& at_end) {
  nlohmann::json samples = nlohmann::json::array();
  for (const MemorySample& m : log.samples()) samples.push_back({{"frames", m.frames}, {"rss_mib", m.rss_mib}, {"device_mib", m.device_mib}});
  samples.push_back({{"frames", at_end.frames}, {"rss_mib", at_end.rss_mib}, {"device_mib", at_end.device_mib}});
  const MemorySample warm = log.after_warmup();
  return {{"rss_mib_after_warmup", warm.rss_mib},   {"rss_mib_at_end", at_end.rss_mib},
          {"device_mib_after_warmup", warm.device_mib}, {"device_mib_at_end", at_end.device_mib},
          {"samples", samples}};
}

std::string to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::running: return "running";
    case Outcome::completed: return "completed";
    case Outcome::interrupted: return "interrupted";
    case Outcome::failed: return "failed";
    case Outcome::not_started: return "not_started";
  }
  return "failed";
}

void stamp_outcome(nlohmann::json& report, Outcome outcome) {
  report["outcome"] = to_string(outcome);
  report["finished"] = outcome == Outcome::completed;
}

nlohmann::json unstarted_report(const std::string& error, bool interrupted, const std::string& program_version) {
  nlohmann::json report = {{"schema_version", report_schema_version}, {"vidpipe_version", program_version},
                           {"interrupted", interrupted}, {"started", false}, {"error", error}};
  stamp_outcome(report, Outcome::not_started);
  return report;
}

void write_report(const nlohmann::json& report, const std::string& path) {
  // Paths are bytes, not always UTF-8 (a file named in Latin-1): such bytes become U+FFFD in
  // the JSON rather than losing the whole report.
  write_output_file(path, "report", report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::string window_line(const Summary& s) {
  const double whole_fps = s.wall_s > 0 ? static_cast<double>(s.frames) / s.wall_s : 0.0;
  std::string line = fmt::format("  fps is over the {:.2f} s after the warm-up; over the whole {:.2f} s run: {:.1f} fps\n",
                                 s.measured_s, s.wall_s, whole_fps);
  // A burst after a stall reads as a rate: say so when the window is the lesser part of the run.
  if (s.wall_s > 1.0 && s.measured_s < 0.5 * s.wall_s)
    line += fmt::format("  note: the measured window is {:.0f}% of the run (first frame out after {:.2f} s): "
                        "start-up and stalls outweigh it, so the whole-run rate ({:.1f} fps) is the one to quote\n",
                        100 * s.measured_s / s.wall_s, s.first.delivered_s, whole_fps);
  return line;
}

std::string summary_text(const std::string& mode, const std::string& device, const Summary& s,
                         const SummaryNotes& notes) {
  std::string out = fmt::format(
      "{} on {}: {} frames ({} measured{}) in {:.2f} s, first frame after {:.2f} s\n", mode, device, s.frames,
      s.frames_measured,
      s.warmup_included ? "; shorter than the warm-up (metrics.warmup_frames), so these figures are not meaningful"
                       : " after warm-up",
      s.wall_s, s.first.delivered_s);
  // On the CPU path the "copies" are memcpy and the "device" is this CPU: say so, and give no
  // link rate that no link carried.
  if (device == "cpu")
    out += fmt::format("  fps {:.1f} | copy-wait {:.1f}% | compute-wait {:.1f}% | cpu busy {:.1f}% (CPU path: no GPU, no PCIe)\n",
                       s.fps, 100 * s.copy_wait_share, 100 * s.compute_wait_share, 100 * s.gpu_busy_share);
  else
    out += fmt::format("  fps {:.1f} | copy-wait {:.1f}% | compute-wait {:.1f}% | gpu busy {:.1f}% | H2D {:.1f} GB/s | "
                       "D2H {:.1f} GB/s\n",
                       s.fps, 100 * s.copy_wait_share, 100 * s.compute_wait_share, 100 * s.gpu_busy_share, s.h2d_gbps,
                       s.d2h_gbps);
  out += window_line(s);
  auto row = [&](const char* name, const StageStats& st) {
    out += fmt::format("  {:<8} mean {:8.3f} ms  p50 {:8.3f} ms  p99 {:8.3f} ms\n", name, st.mean_ms, st.p50_ms,
                       st.p99_ms);
  };
  row("decode", s.decode);
  row("h2d", s.h2d);
  row("compute", s.compute);
  row(" preproc", s.preprocess);
  row(" infer", s.infer);
  row("d2h", s.d2h);
  row("sink", s.sink);
  row("latency", s.latency);
  if (notes.detecting)
    out += fmt::format("  faces: {} in {} of {} frames\n", s.faces, s.frames_with_faces, s.frames);
  else
    out += "  face detection off (gpu.inference: false)\n";
  if (s.frames_dropped > 0 || notes.reconnects > 0)
    out += fmt::format("  live: {} frames dropped (input.drop; {} after the warm-up), {} reconnects\n", s.frames_dropped,
                       s.frames_dropped_measured, notes.reconnects);
  if (!s.bottleneck.stage.empty()) {
    out += "  " + s.bottleneck.evidence + "\n";
    if (!s.bottleneck.lift.empty()) out += "  to lift it: " + s.bottleneck.lift + "\n";
  }
  return out;
}

}  // namespace vidpipe
