// The run as a Chrome/Perfetto trace (Trace Event Format, "X" complete events): one
// track per host thread (reader, submit, sink) and one per CUDA stream, so a person
// sees in chrome://tracing or ui.perfetto.dev whether copies overlap compute. All of
// it is rebuilt from the records the metrics keep anyway; nothing is timed twice. On a
// run longer than metrics.keep_frames it holds the last keep_frames frames (a ring).
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <fstream>
#include <map>
#include <set>

#include "base/errors.hpp"
#include "metrics/run_metrics.hpp"
#include "base/output_file.hpp"

namespace vidpipe {
namespace {

enum Track { reader = 1, submit = 2, sink = 3, first_stream = 10 };

nlohmann::json span(const std::string& name, int tid, double begin_s, double end_s, nlohmann::json args = {}) {
  nlohmann::json e = {{"name", name}, {"ph", "X"}, {"pid", 1}, {"tid", tid},
                      {"ts", begin_s * 1e6}, {"dur", std::max(0.0, end_s - begin_s) * 1e6}};
  if (!args.is_null()) e["args"] = std::move(args);
  return e;
}

nlohmann::json track_name(int tid, const std::string& name) {
  return {{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

void RunMetrics::write_trace(const std::string& path, const std::string& device, const std::string& mode) const {
  std::lock_guard lock(mutex_);
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "vidpipe on " + device}}}});
  events.push_back(track_name(reader, "reader thread"));
  events.push_back(track_name(submit, "submit thread"));
  events.push_back(track_name(sink, "sink thread"));
  std::set<int> streams;
  // One GPU span set per batch: frames of a batch share begin time and stream.
  std::set<std::pair<int, double>> batches_seen;
  for (const FrameRecord& r : frames_) {
    const nlohmann::json frame = {{"frame", r.index}};
    events.push_back(span("decode", reader, r.decoded_at - r.decode_ms / 1e3, r.decoded_at, frame));
    events.push_back(span("sink", sink, r.sink_at - r.sink_ms / 1e3, r.sink_at, frame));
    if (!batches_seen.insert({r.stream, r.gpu_begin}).second) continue;
    streams.insert(r.stream);
    const int tid = first_stream + r.stream;
    const double n = r.batch;
    const double h2d_end = r.gpu_begin + r.h2d_ms * n / 1e3;
    const double pre_end = h2d_end + r.preprocess_ms * n / 1e3;
    const double infer_end = pre_end + r.infer_ms * n / 1e3;
    const double compute_end = h2d_end + r.compute_ms * n / 1e3;
    const nlohmann::json batch = {{"first_frame", r.index}, {"frames", r.batch},
                                  {"copies", r.sync_copies ? "sync" : "async"}};
    events.push_back(span("H2D", tid, r.gpu_begin, h2d_end, batch));
    events.push_back(span("preprocess", tid, h2d_end, pre_end, batch));
    if (r.infer_ms > 0) events.push_back(span("inference", tid, pre_end, infer_end, batch));
    events.push_back(span("overlay", tid, infer_end, compute_end, batch));
    events.push_back(span("D2H", tid, r.gpu_end - r.d2h_ms * n / 1e3, r.gpu_end, batch));
  }
  // Without a GPU the stage runs on the CPU twins, slot by slot: no "CUDA stream" there.
  const std::string lane = device == "cpu" ? "CPU compute slot " : "CUDA stream ";
  for (int s : streams) events.push_back(track_name(first_stream + s, lane + std::to_string(s)));
  for (const Interval& w : copy_waits_.recent) events.push_back(span("copy wait", submit, w.begin, w.end));
  for (const Interval& w : compute_waits_.recent) events.push_back(span("compute wait", submit, w.begin, w.end));
  const auto kept = static_cast<std::int64_t>(frames_.size());
  if (kept < added_)
    spdlog::info("trace '{}' holds the last {} of {} frames (metrics.keep_frames)", path, kept, added_);
  // The mode and device: what a chart of it (trace-png) names in its title.
  const nlohmann::json meta = {{"frames", added_}, {"frames_in_trace", kept}, {"mode", mode}, {"device", device}};
  const nlohmann::json trace = {{"traceEvents", events}, {"displayTimeUnit", "ms"}, {"metadata", meta}};
  write_output_file(path, "trace", trace.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace vidpipe
