// run_pipeline: assemble the parts, drive them, finish the outputs and gather the
// figures. The drivers are sync_driver.cpp and async_driver.cpp.
#include "run/pipeline.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <thread>

#include "base/errors.hpp"
#include "metrics/progress.hpp"
#include "metrics/report.hpp"
#include "run/parts.hpp"

namespace vidpipe {
namespace {

// Polls the stop flags so that a reader blocked on a silent live source or a full
// pool still hears Ctrl-C or the display's q.
class StopWatcher {
 public:
  explicit StopWatcher(PipelineParts& p)
      : thread_([this, &p] {
          while (!done_) {
            if (p.stopping()) {
              p.sources->request_stop();
              return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
        }) {}
  ~StopWatcher() {
    done_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// Runs the driver; an error ends the run but keeps what reached the sinks.
std::exception_ptr drive(PipelineParts& p) {
  try {
    StopWatcher watcher(p);
    p.sources->start();
    if (p.config.copy.mode == CopyMode::async)
      run_async(p);
    else
      run_sync(p);
    p.sources->rethrow();
  } catch (...) {
    p.sources->request_stop();
    return std::current_exception();
  }
  return nullptr;
}

// Finalises every output; the first error wins.
void finish_sinks(PipelineParts& p, std::exception_ptr& error) {
  for (auto& sink : p.sinks) {
    try {
      sink->finish();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  // The progress line ends at 100% of what was delivered, whatever the estimate said.
  if (p.terminal && p.config.metrics.live)
    fmt::print(stderr, "\r{}\x1b[K\n",
               progress_line(p.frames_delivered, p.frames_delivered, p.metrics->hud_fps(), " | done",
                             terminal_columns()));
}

nlohmann::json inputs_json(const PipelineParts& p, const Summary& s) {
  const FrameSources& sources = *p.sources;
  nlohmann::json inputs = nlohmann::json::array();
  for (int i = 0; i < sources.count(); ++i) {
    const VideoInfo& info = sources.reader(i).info();
    inputs.push_back({{"uri", info.uri}, {"codec", info.codec}, {"decoder", info.decoder},
                      {"decoder_threads", info.decoder_threads}, {"preloaded", info.preloaded},
                      {"width", info.width}, {"height", info.height}, {"source_fps", info.fps},
                      {"live", sources.live(i)}, {"frames_decoded", sources.decoded(i)},
                      {"frames_dropped", sources.dropped(i)}, {"frames_measured", s.input_frames_measured[i]},
                      {"fps", s.input_fps[i]}, {"decode_errors", sources.reader(i).decode_errors()},
                      {"reconnects", sources.reader(i).reconnects()},
                      {"frames_written", p.sinks[i]->frames_written()}});
  }
  return inputs;
}

// A file that ran to its end without one decodable frame is an input error, not a
// successful run with an empty output.
std::exception_ptr no_frame_error(const PipelineParts& p) {
  if (p.stopping()) return nullptr;
  for (int i = 0; i < p.sources->count(); ++i) {
    const VideoReader& reader = p.sources->reader(i);
    if (p.sources->decoded(i) == 0 && !p.sources->live(i))
      return std::make_exception_ptr(InputError(fmt::format("'{}': no frame could be decoded ({} decode errors)",
                                                            reader.info().uri, reader.decode_errors())));
  }
  return nullptr;
}

RunResult gather(PipelineParts& p, std::exception_ptr error) {
  const int n = p.sources->count();
  RunResult result;
  result.input = p.inputs.front();
  result.device = p.executor->device_name();
  result.mode = mode_label(p.config);
  result.summary = p.metrics->summarise(p.now(), n);
  result.summary.frames_dropped = p.sources->dropped_total();
  if (!p.config.metrics.trace.empty()) p.metrics->write_trace(p.config.metrics.trace, result.device);
  for (int i = 0; i < n; ++i) result.decode_errors += p.sources->reader(i).decode_errors();
  result.memory_after_warmup = p.memory_log->after_warmup();
  result.memory_at_end = sample_memory(result.summary.frames, p.on_gpu);
  result.report = make_report(p.config, result.input, result.device, result.mode, result.summary, result.decode_errors);
  if (p.config.copy.mode == CopyMode::sync) {
    result.prediction = predict_async(result.summary, std::max(2, p.config.copy.streams));
    result.report["prediction"] = {{"async_fps", result.prediction.fps}, {"bound", result.prediction.bound},
                                   {"streams", result.prediction.streams}};
  }
  result.report["inputs"] = inputs_json(p, result.summary);
  result.report["preloaded"] = p.sources->reader(0).info().preloaded;
  result.report["memory"] = memory_json(*p.memory_log, result.memory_at_end);
  result.error = error;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      result.report["error"] = e.what();
    }
  }
  return result;
}

}  // namespace

std::string mode_label(const Config& c) {
  const bool async = c.copy.mode == CopyMode::async;
  std::string label = fmt::format("{} {}", to_string(c.copy.mode), to_string(c.copy.memory));
  if (async) label += " x" + std::to_string(c.copy.streams);
  if (async && c.copy.batch_size > 1) label += " b" + std::to_string(c.copy.batch_size);
  if (c.reader.decoder == Decoder::nvdec && c.input.preload == 0) label += " nvdec";
  if (c.input.preload > 0) label += " preload " + std::to_string(c.input.preload);
  if (c.inputs.size() > 1) label += " " + std::to_string(c.inputs.size()) + " inputs";
  return label;
}

RunResult run_pipeline(const Config& config, const std::atomic<bool>* stop) {
  std::unique_ptr<PipelineParts> parts = assemble(config, stop);
  const int n = parts->sources->count();
  spdlog::info("running {} on {} -> {}{}", mode_label(parts->config), parts->executor->device_name(),
               parts->sinks.front()->describe(),
               n > 1 ? fmt::format(" (and {} more, one per input)", n - 1) : "");
  std::exception_ptr error = drive(*parts);
  if (!error) error = no_frame_error(*parts);
  finish_sinks(*parts, error);
  return gather(*parts, error);
}

}  // namespace vidpipe
