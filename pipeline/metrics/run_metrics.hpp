// Per-frame records and host wait intervals, reduced to the figures DESIGN.md
// defines (fps, copy-wait share, GPU busy share, per-stage times). All times are
// seconds on the pipeline clock (0 = pipeline start) unless named *_ms.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/image_types.hpp"
#include "device/host_wait.hpp"
#include "metrics/progress.hpp"
#include "metrics/stage_account.hpp"
#include "metrics/startup.hpp"
#include "metrics/streaming_stats.hpp"

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
  bool sync_copies = false;  // the frame's copies were blocking (sync mode, or the display's s key)
  double stream_s = 0;     // the frame's timestamp in its stream
  // How much later than the most punctual frame so far this one left the sink,
  // measured against the stream's own clock: flat when the pipeline keeps up with a
  // live source (or drops to), growing when frames back up (input.drop: none).
  double live_lag_ms = 0;
};


struct Summary {
  std::int64_t frames = 0;
  std::int64_t frames_measured = 0;
  std::int64_t frames_dropped = 0;
  std::int64_t frames_dropped_measured = 0;  // of those, after the warm-up
  double wall_s = 0;           // whole run
  double measured_s = 0;       // after warm-up
  FirstFrameTimes first;       // start-up: the first frame's way through the stages, out of the sink at delivered_s
  double fps = 0;
  double copy_wait_share = 0;
  double compute_wait_share = 0;
  double gpu_busy_share = 0;
  StageStats decode, h2d, compute, preprocess, infer, d2h, sink, latency;
  std::int64_t faces = 0, frames_with_faces = 0;
  double h2d_gbps = 0, d2h_gbps = 0;  // GB/s (10^9 bytes a second), not Gbit/s
  // Mean bytes a measured frame moved each way (d2h is smaller where sink.width/height scale).
  double h2d_bytes_per_frame = 0, d2h_bytes_per_frame = 0;
  bool warmup_included = false;  // too few frames to leave the warm-up out
  // Frames older than the kept window were folded into histograms: percentiles are
  // then within 1% rather than exact, and a trace holds only the kept frames.
  std::int64_t frames_kept = 0;
  StageStats live_lag;
  double live_lag_last_ms = 0;  // of the last frame out
  // Per input, over the same window as fps.
  std::int64_t frames_sync_copies = 0;  // measured frames whose copies were blocking
  StageShares shares;                   // each stage's busy / starved / blocked shares
  Bottleneck bottleneck;                // which stage bounds the frame rate, and why
  std::vector<std::int64_t> input_frames_measured;
  std::vector<double> input_fps;
};

// Which stage a per-frame time belongs to, for the folded accumulators.
enum class Stage { decode, h2d, compute, preprocess, infer, d2h, sink, latency, live_lag, count };

// Memory stays bounded on an endless run: the last `keep_frames` frames (and as many
// waits of each kind) are kept whole; older ones are folded into sums, histograms
// and running unions once the warm-up has ended (DESIGN.md, metrics).
class RunMetrics {
 public:
  static constexpr std::int64_t default_keep_frames = 10'000;
  explicit RunMetrics(int warmup_frames, std::int64_t keep_frames = default_keep_frames);

  void add_wait(WaitKind kind, double begin, double end);
  void add_waits(const HostWaits& waits);
  void add_span(StageSpan kind, double begin, double end);
  // How the run is laid out, for the bottleneck verdict (once the inputs are open).
  void set_shape(const RunShape& shape);
  void add_frame(const FrameRecord& record);
  // The live display's figures over the last second; none if not due yet (once a second).
  // Also refreshes the figures hud_text() shows.
  std::optional<LiveFigures> live_figures(double now);
  // What the last live_figures() returned; none before the first.
  std::optional<LiveFigures> last_live_figures() const;
  // "fps 123.4  copy-wait 12.3%" and "bound by decode" from the last live_figures(), for the overlay.
  HudLines hud_text() const;
  // Frames out of the sink per second over the `window_s` before `now`: what a scraper
  // watching a live run wants, falling to 0 when frames stop (fps is the whole window's).
  double recent_fps(double now, double window_s = recent_window_s) const;
  static constexpr double recent_window_s = 5.0;
  // `inputs`: how many inputs there were (per-input figures are sized to it).
  Summary summarise(double end_time, int inputs = 1) const;
  // Chrome/Perfetto trace (Trace Event Format) of the run: see trace.cpp.
  void write_trace(const std::string& path, const std::string& device, const std::string& mode) const;

 private:
  // Exact per-frame sums, the same whether a frame was folded or is still kept.
  struct Totals {
    std::vector<std::int64_t> input_frames;  // measured frames per input
    double h2d_bytes = 0, d2h_bytes = 0, h2d_s = 0, d2h_s = 0;
    std::int64_t sync_copy_frames = 0;
    void add(const FrameRecord& r);
  };
  // What folded-out frames leave behind.
  struct Folded {
    std::array<StageAccumulator, static_cast<std::size_t>(Stage::count)> stages;
    FoldedUnion gpu;
    Totals totals;
  };
  struct Waits {
    std::deque<Interval> recent;  // in the order they ended
    FoldedUnion folded;
  };

  bool window_open() const { return added_ > warmup_frames_; }
  void add_frame_figures(Summary& s, std::int64_t first, double lo, double hi) const;
  void fold_oldest_frame();
  void fold_old_waits(Waits& waits);
  double waits_length(const Waits& waits, double lo, double hi) const;
  // Each stage's shares over [lo, hi] (mutex_ held); `live`: from the kept intervals alone,
  // for the live line's last second (run_metrics_stages.cpp).
  StageShares stage_shares(double lo, double hi, bool live) const;
  double span_length(const Waits& waits, double lo, double hi, bool live) const;
  void add_device_shares(StageShares& s, double lo, double hi) const;
  static HudLines hud_lines(double fps, double copy_wait, const std::string& bound);

  int warmup_frames_;
  std::int64_t keep_frames_;
  mutable std::mutex mutex_;
  std::deque<FrameRecord> frames_;  // the last keep_frames_, in the order they left the sink
  std::int64_t added_ = 0;          // all frames so far
  std::int64_t faces_ = 0, frames_with_faces_ = 0;
  FrameRecord first_record_;        // the first frame out of the sink
  double window_lo_ = 0;            // sink time of the warm-up's last frame
  double last_sink_at_ = 0;
  Folded folded_;
  Waits copy_waits_, compute_waits_, output_waits_;
  std::array<Waits, static_cast<std::size_t>(StageSpan::count)> spans_;
  RunShape shape_;
  HudLines hud_;  // made by the last live line
  double last_live_ = 0;
  std::int64_t frames_at_last_live_ = 0;
  std::optional<LiveFigures> live_;  // the last live_figures()
};

}  // namespace vidpipe
