// run_pipeline: assemble the parts, drive them, finish the outputs and gather the
// figures. The drivers are sync_driver.cpp and async_driver.cpp.
#include "run/pipeline.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <thread>

#include "base/errors.hpp"
#include "metrics/progress.hpp"
#include "metrics/report.hpp"
#include "metrics/metrics_server.hpp"
#include "run/parts.hpp"
#include "run/run_report.hpp"

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
  } catch (const Interrupted&) {  // the run's stop cut an FFmpeg call short: a stop, not an error
    p.sources->request_stop();
  } catch (...) {
    p.sources->request_stop();
    return std::current_exception();
  }
  return nullptr;
}

// Finalises every output (the detections log too); the first error wins.
void finish_sinks(PipelineParts& p, std::exception_ptr& error) {
  auto keep_first_error = [&error](auto&& finish) {
    try {
      finish();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  };
  for (std::size_t i = 0; i < p.sinks.size(); ++i)
    keep_first_error([&] { if (!p.sink_finished[i]) p.sinks[i]->finish(); });
  if (p.detections) keep_first_error([&] { p.detections->finish(); });
  // The progress line ends at 100% of what was delivered, whatever the estimate said; an
  // interrupted run's against what it was to do, not "100% done".
  if (p.terminal && p.config.metrics.live) {
    const bool stopped = p.stopping();
    const ProgressState last{p.frames_delivered, stopped ? p.expected_frames : p.frames_delivered,
                             p.metrics->last_live_figures(), p.sources->dropped_total(), stopped ? "interrupted" : "done"};
    take_progress_row();
    fmt::print(stderr, "\r{}\x1b[K\n", progress_line(last, terminal_columns()));
  }
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

RunResult gather(PipelineParts& p, std::exception_ptr error, const std::string& program_version) {
  const int n = p.sources->count();
  RunResult result;
  result.input = p.inputs.front();
  result.device = p.executor->device_name();
  result.mode = mode_as_run(p);
  result.summary = p.metrics->summarise(p.now(), n);
  result.summary.frames_dropped = p.sources->dropped_total();
  result.summary.frames_dropped_measured = p.dropped_in_window();
  // A trace that cannot be written is the run's error, and the report still says the rest.
  if (!p.config.metrics.trace.empty()) try {
      p.metrics->write_trace(p.config.metrics.trace, result.device, result.mode);
    } catch (const OutputError&) {
      if (!error) error = std::current_exception();
    }
  for (int i = 0; i < n; ++i) result.decode_errors += p.sources->reader(i).decode_errors();
  result.memory_after_warmup = p.memory_log->after_warmup();
  result.memory_at_end = sample_memory(result.summary.frames, p.on_gpu);
  if (p.config.copy.mode == CopyMode::sync)
    result.prediction = predict_async(result.summary, std::max(2, p.config.copy.streams));
  result.startup = p.startup;
  result.report = run_report(p, result.summary, result.memory_at_end, {program_version, true});
  result.error = error;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      result.report["error"] = e.what();
    }
    stamp_outcome(result.report, Outcome::failed);
  }
  return result;
}

}  // namespace

std::string mode_label(const Config& c) {
  const bool async = c.copy.mode == CopyMode::async;
  std::string label = fmt::format("{} {}", to_string(c.copy.mode), to_string(c.copy.memory));
  if (async) label += " x" + std::to_string(c.copy.streams);
  if (async && c.copy.batch_size > 1) label += " b" + std::to_string(c.copy.batch_size);
  if (c.reader.decoders.mixed() && c.input.preload == 0)
    label += " cpu+nvdec";
  else if (c.reader.decoder == Decoder::nvdec && c.input.preload == 0)
    label += " nvdec";
  if (c.input.preload > 0) label += " preload " + std::to_string(c.input.preload);
  if (c.inputs.size() > 1) label += " " + std::to_string(c.inputs.size()) + " inputs";
  return label;
}

// Shows a run's live report on a board for as long as it lives.
class BoardShowing {
 public:
  BoardShowing(LiveReportBoard* board, PipelineParts& parts, const std::string& program_version) : board_(board) {
    if (board_) board_->show([&parts, program_version] { return live_report(parts, {program_version, false}); });
  }
  ~BoardShowing() { withdraw(); }
  BoardShowing(const BoardShowing&) = delete;
  BoardShowing& operator=(const BoardShowing&) = delete;
  void withdraw() {
    if (board_) board_->withdraw();
    board_ = nullptr;
  }

 private:
  LiveReportBoard* board_;
};

RunResult run_pipeline(const Config& config, const std::atomic<bool>* stop, const std::string& program_version,
                       LiveReportBoard* board) {
  // metrics.listen's endpoint binds before anything opens: a port in use is a config error.
  const std::unique_ptr<MetricsServer> server =
      config.metrics.listen.empty() ? nullptr : std::make_unique<MetricsServer>(parse_listen(config.metrics.listen));
  std::unique_ptr<PipelineParts> parts = assemble(config, stop);
  // Declared after the parts: it stops answering from them before they go.
  auto publication = server ? server->publish([&p = *parts, program_version] {
    return live_report(p, {program_version, false});
  })
                                  : nullptr;
  BoardShowing showing(board, *parts, program_version);
  const int n = parts->sources->count();
  spdlog::info("running {} on {} -> {}{}", mode_label(parts->config), parts->executor->device_name(),
               parts->sinks.front()->describe(),
               n > 1 ? fmt::format(" (and {} more, one per input)", n - 1) : "");
  std::exception_ptr error = drive(*parts);
  if (!error) error = no_frame_error(*parts);
  ShutdownTimes shutdown;
  const double finishing_from = steady_seconds();
  finish_sinks(*parts, error);
  shutdown.finish_s = steady_seconds() - finishing_from;
  RunResult result = gather(*parts, error, program_version);
  // Freed here rather than on return so that what freeing costs (pinned pools, the
  // executor's device memory) is in the report; the endpoint stops answering first.
  publication.reset();
  showing.withdraw();
  const double releasing_from = steady_seconds();
  parts.reset();
  shutdown.release_s = steady_seconds() - releasing_from;
  result.shutdown = shutdown;
  result.report["shutdown"] = shutdown_json(shutdown);
  return result;
}

}  // namespace vidpipe
