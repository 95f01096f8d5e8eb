// Everything one run is made of, built from a Config by assemble() (assemble.cpp) and
// driven by the sync driver (sync_driver.cpp) or the async driver's named loops
// (async_driver.cpp). The stages talk only through the sources' queue, the executor's
// slots and the drivers' queues.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/clock.hpp"
#include "config/config.hpp"
#include "device/executor.hpp"
#include "memory/frame_pool.hpp"
#include "metrics/memory_usage.hpp"
#include "metrics/run_metrics.hpp"
#include "sink/detections_log.hpp"
#include "sink/sink.hpp"
#include "source/frame_sources.hpp"
#include "source/live_lag.hpp"

namespace vidpipe {

struct PipelineParts {
  Config config;  // as run: e.g. pinned memory falls back to pageable without a device
  bool on_gpu = false;
  double origin = 0;  // steady-clock seconds of pipeline time 0
  StartupTimes startup;  // what assembling took, part by part
  const std::atomic<bool>* stop = nullptr;
  std::vector<VideoInfo> inputs;
  // Before the sources: the reader threads report into it until the sources are destroyed.
  std::unique_ptr<RunMetrics> metrics;
  std::unique_ptr<FrameSources> sources;
  std::unique_ptr<Executor> executor;
  LiveControls controls;  // the display window's keys; the sinks hold a pointer to it
  std::vector<std::unique_ptr<FramePool>> out_pools;  // one per input: layouts differ
  std::vector<std::unique_ptr<Sink>> sinks;          // one per input
  std::vector<bool> sink_finished;  // finish_output has run (sink thread, then the teardown)
  std::unique_ptr<MemoryLog> memory_log;  // sampled by the sink thread
  std::unique_ptr<DetectionLog> detections;  // metrics.detections; null: none (sink thread only)
  std::unique_ptr<LiveLagClock> live_lag;  // sink thread only
  std::int64_t expected_frames = 0;       // 0: unknown (live, looping)
  std::int64_t frames_delivered = 0;      // to the sinks so far (one thread delivers: the sink loop's)
  // Frames the inputs had dropped when the warm-up ended (-1: not yet), so that drops in
  // the measured window are told from those of the start-up.
  std::atomic<std::int64_t> dropped_at_warmup{-1};
  // Frames dropped after the warm-up: all of them while it has not ended.
  std::int64_t dropped_in_window() const {
    const std::int64_t total = sources->dropped_total(), before = dropped_at_warmup.load();
    return before < 0 ? total : total - before;
  }
  bool terminal = false;                  // stderr is a terminal: redraw one progress line

  double now() const { return steady_seconds() - origin; }
  bool stopping() const { return (stop && stop->load()) || controls.quit; }
  int batch_size() const { return config.copy.mode == CopyMode::async ? config.copy.batch_size : 1; }
};

// Opens the inputs, makes the executor, pools and sinks. Errors (bad input, config,
// CUDA) throw before anything runs.
std::unique_ptr<PipelineParts> assemble(const Config& config, const std::atomic<bool>* stop);

// The drivers: both return when the inputs end, on a stop, or by throwing the first error.
void run_sync(PipelineParts& parts);
void run_async(PipelineParts& parts);

}  // namespace vidpipe
