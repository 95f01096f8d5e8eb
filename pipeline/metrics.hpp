// Per-frame records and host wait intervals, reduced to the figures DESIGN.md
// defines (fps, copy-wait share, GPU busy share, per-stage times). All times are
// seconds on the pipeline clock (0 = pipeline start) unless named *_ms.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "image_types.hpp"

namespace vidpipe {

struct FrameRecord {
  std::int64_t index = 0;
  double decoded_at = 0, sink_at = 0;
  double decode_ms = 0, h2d_ms = 0, compute_ms = 0, d2h_ms = 0, sink_ms = 0;
  double gpu_begin = 0, gpu_end = 0;  // device activity for this frame's batch
  std::size_t h2d_bytes = 0, d2h_bytes = 0;
  double preprocess_ms = 0, infer_ms = 0;
  int faces = 0;
  int stream = 0;      // the batch's stream, for the trace
  int batch = 1;       // frames that shared the batch (the *_ms above are per frame)
  int source = 0;      // which input
  double stream_s = 0;     // the frame's timestamp in its stream
  // How much later than the most punctual frame so far this one left the sink,
  // measured against the stream's own clock: flat when the pipeline keeps up with a
  // live source (or drops to), growing when frames back up (input.drop: none).
  double live_lag_ms = 0;
};

// What the submitting thread was blocked on.
enum class WaitKind { copy, compute, output_buffer };

struct Interval {
  double begin = 0, end = 0;
};

struct StageStats {
  double mean_ms = 0, p50_ms = 0, p99_ms = 0;
};

struct Summary {
  std::int64_t frames = 0;
  std::int64_t frames_measured = 0;
  std::int64_t frames_dropped = 0;
  double wall_s = 0;           // whole run
  double measured_s = 0;       // after warm-up
  double first_frame_s = 0;    // start-up: pipeline start to the first frame out of the sink
  double fps = 0;
  double copy_wait_share = 0;
  double compute_wait_share = 0;
  double gpu_busy_share = 0;
  StageStats decode, h2d, compute, preprocess, infer, d2h, sink, latency;
  std::int64_t faces = 0, frames_with_faces = 0;
  double h2d_gbps = 0, d2h_gbps = 0;
  bool warmup_skipped = false;  // too few frames to leave the warm-up out
  StageStats live_lag;
  double live_lag_last_ms = 0;  // of the last frame out
  // Per input, over the same window as fps.
  std::vector<std::int64_t> input_frames_measured;
  std::vector<double> input_fps;
};

// Length of the union of `intervals` inside [lo, hi].
double union_length(std::vector<Interval> intervals, double lo, double hi);
StageStats stage_stats(std::vector<double> values_ms);

class RunMetrics {
 public:
  explicit RunMetrics(int warmup_frames) : warmup_frames_(warmup_frames) {}

  void add_wait(WaitKind kind, double begin, double end);
  void add_frame(const FrameRecord& record);
  // One line for the live display, over the last second; empty if none due yet.
  // Also refreshes the figures hud_text() shows.
  std::string live_line(double now);
  // "fps 123.4  copy-wait 12.3%" from the last live_line(), for the overlay.
  HudText hud_text() const;
  double hud_fps() const;
  // `inputs`: how many inputs there were (per-input figures are sized to it).
  Summary summarise(double end_time, int inputs = 1) const;
  // Chrome/Perfetto trace (Trace Event Format) of the run: see trace.cpp.
  void write_trace(const std::string& path, const std::string& device) const;

 private:
  int warmup_frames_;
  mutable std::mutex mutex_;
  std::vector<FrameRecord> frames_;
  std::vector<Interval> copy_waits_, compute_waits_;
  double last_live_ = 0;
  double live_fps_ = 0, live_copy_wait_ = 0;
};

// Records [construction, destruction) as a wait of `kind`.
class ScopedWait {
 public:
  ScopedWait(RunMetrics& metrics, WaitKind kind, double clock_origin);
  ~ScopedWait();
  ScopedWait(const ScopedWait&) = delete;
  ScopedWait& operator=(const ScopedWait&) = delete;

 private:
  RunMetrics& metrics_;
  WaitKind kind_;
  double origin_, begin_;
};

}  // namespace vidpipe
