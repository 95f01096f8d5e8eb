#include "metrics/run_metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/clock.hpp"

namespace vidpipe {
namespace {

// A frame's time for each Stage, in the enum's order.
std::array<double, static_cast<std::size_t>(Stage::count)> stage_times(const FrameRecord& r) {
  return {r.decode_ms,  r.h2d_ms, r.compute_ms, r.preprocess_ms, r.infer_ms, r.d2h_ms,
          r.sink_ms, (r.sink_at - r.decoded_at) * 1e3, r.live_lag_ms};
}

}  // namespace

void RunMetrics::Totals::add(const FrameRecord& r) {
  if (r.source >= static_cast<int>(input_frames.size())) input_frames.resize(r.source + 1, 0);
  if (r.source >= 0) ++input_frames[r.source];
  h2d_bytes += static_cast<double>(r.h2d_bytes);
  d2h_bytes += static_cast<double>(r.d2h_bytes);
  h2d_s += r.h2d_ms / 1e3;
  d2h_s += r.d2h_ms / 1e3;
  sync_copy_frames += r.sync_copies ? 1 : 0;
}

RunMetrics::RunMetrics(int warmup_frames, std::int64_t keep_frames)
    : warmup_frames_(warmup_frames),
      keep_frames_(std::max<std::int64_t>(keep_frames, 1)),
      hud_(hud_lines(0, 0, "")) {}

void RunMetrics::add_wait(WaitKind kind, double begin, double end) {
  std::lock_guard lock(mutex_);
  // Output-buffer waits are the sink's backpressure, not copy cost: they count only as the
  // submit thread being blocked.
  Waits& waits = kind == WaitKind::copy ? copy_waits_ : kind == WaitKind::compute ? compute_waits_ : output_waits_;
  waits.recent.push_back({begin, end});
  fold_old_waits(waits);
}

void RunMetrics::add_frame(const FrameRecord& record) {
  std::lock_guard lock(mutex_);
  if (added_ == 0) first_record_ = record;
  ++added_;
  if (added_ == warmup_frames_) window_lo_ = record.sink_at;
  last_sink_at_ = std::max(last_sink_at_, record.sink_at);
  faces_ += record.faces;  // detections count over the whole run
  frames_with_faces_ += record.faces > 0;
  frames_.push_back(record);
  while (static_cast<std::int64_t>(frames_.size()) > keep_frames_ && window_open()) fold_oldest_frame();
}

// Only once the warm-up is over, so the window's start is known when folding.
void RunMetrics::fold_oldest_frame() {
  const FrameRecord& r = frames_.front();
  const std::int64_t ordinal = added_ - static_cast<std::int64_t>(frames_.size());
  if (ordinal >= warmup_frames_) {
    const auto times = stage_times(r);
    for (std::size_t k = 0; k < times.size(); ++k) folded_.stages[k].add(times[k]);
    folded_.gpu.fold({r.gpu_begin, r.gpu_end}, window_lo_);
    folded_.totals.add(r);
  }
  frames_.pop_front();
}

void RunMetrics::fold_old_waits(Waits& waits) {
  while (static_cast<std::int64_t>(waits.recent.size()) > keep_frames_ && window_open()) {
    waits.folded.fold(waits.recent.front(), window_lo_);
    waits.recent.pop_front();
  }
}

double RunMetrics::waits_length(const Waits& waits, double lo, double hi) const {
  const std::vector<Interval> recent(waits.recent.begin(), waits.recent.end());
  return waits.folded.length() + union_length(recent, std::max(lo, waits.folded.frontier()), hi);
}

std::optional<LiveFigures> RunMetrics::live_figures(double now) {
  std::lock_guard lock(mutex_);
  if (now - last_live_ < 1.0) return std::nullopt;
  const double lo = last_live_;
  last_live_ = now;
  const std::int64_t n = added_ - frames_at_last_live_;
  frames_at_last_live_ = added_;
  std::vector<Interval> gpu;
  for (auto it = frames_.rbegin(); it != frames_.rend() && it->sink_at > lo; ++it)
    gpu.push_back({it->gpu_begin, it->gpu_end});
  const double window = now - lo;
  const StageShares shares = stage_shares(lo, now, true);
  LiveFigures f;
  f.frames = added_;
  f.fps = static_cast<double>(n) / window;
  f.copy_wait = shares.copy_wait;
  f.busy = union_length(gpu, lo, now) / window;
  f.on_gpu = shape_.on_gpu;
  RunShape shape = shape_;
  shape.fps = f.fps;
  // The HUD is drawn on every frame: made here, once a second, not per frame.
  hud_ = hud_lines(f.fps, shares.copy_wait, judge_bottleneck(shares, shape).stage);
  live_ = f;
  return f;
}

std::optional<LiveFigures> RunMetrics::last_live_figures() const {
  std::lock_guard lock(mutex_);
  return live_;
}

HudLines RunMetrics::hud_lines(double fps, double copy_wait, const std::string& bound) {
  HudLines h;
  auto write = [](HudText& t, const std::string& text, int line) {
    const std::size_t n = std::min(text.size(), sizeof t.text - 1);
    std::copy_n(text.data(), n, t.text);
    t.length = static_cast<int>(n);
    t.line = line;
  };
  write(h.line[0], fmt::format("vidpipe  fps {:.1f}  copy-wait {:.1f}%", fps, 100 * copy_wait), 0);
  if (!bound.empty()) write(h.line[1], "bound by " + bound, 1);
  return h;
}

HudLines RunMetrics::hud_text() const {
  std::lock_guard lock(mutex_);
  return hud_;
}

double RunMetrics::recent_fps(double now, double window_s) const {
  std::lock_guard lock(mutex_);
  const double from = std::max(0.0, now - window_s);
  std::int64_t n = 0;
  for (auto it = frames_.rbegin(); it != frames_.rend() && it->sink_at > from; ++it) ++n;
  return now > from ? static_cast<double>(n) / (now - from) : 0.0;
}

Summary RunMetrics::summarise(double end_time, int inputs) const {
  std::lock_guard lock(mutex_);
  Summary s;
  s.frames = added_;
  s.frames_kept = static_cast<std::int64_t>(frames_.size());
  s.wall_s = end_time;
  s.input_frames_measured.assign(inputs, 0);
  s.input_fps.assign(inputs, 0.0);
  if (added_ == 0) return s;
  // The window opens when the warm-up's last frame leaves the sink, so start-up
  // (allocation, first decode, encoder lookahead) stays out of the rates.
  std::int64_t first = warmup_frames_;
  double lo = warmup_frames_ == 0 ? 0.0 : window_lo_;
  if (!window_open()) {  // nothing was folded: every frame is still here
    s.warmup_included = true;
    first = 0;
    lo = 0.0;
  }
  const double hi = last_sink_at_;
  const FrameRecord& f = first_record_;
  s.first = {true, f.decoded_at - f.decode_ms / 1e3, f.decoded_at, f.gpu_begin, f.gpu_end, f.sink_at};
  s.faces = faces_;
  s.frames_with_faces = frames_with_faces_;
  s.frames_measured = added_ - first;
  s.measured_s = hi - lo;
  if (s.measured_s <= 0) return s;
  s.fps = static_cast<double>(s.frames_measured) / s.measured_s;
  s.copy_wait_share = waits_length(copy_waits_, lo, hi) / s.measured_s;
  s.compute_wait_share = waits_length(compute_waits_, lo, hi) / s.measured_s;
  add_frame_figures(s, first, lo, hi);
  return s;
}

// The figures made from frame records, folded and kept, inside [lo, hi] (mutex_ held).
void RunMetrics::add_frame_figures(Summary& s, std::int64_t first, double lo, double hi) const {
  const int inputs = static_cast<int>(s.input_fps.size());
  std::vector<Interval> gpu;
  std::array<std::vector<double>, static_cast<std::size_t>(Stage::count)> recent;
  Totals totals = folded_.totals;
  const std::int64_t front_ordinal = added_ - static_cast<std::int64_t>(frames_.size());
  for (std::size_t k = 0; k < frames_.size(); ++k) {
    if (front_ordinal + static_cast<std::int64_t>(k) < first) continue;
    const FrameRecord& r = frames_[k];
    totals.add(r);
    gpu.push_back({r.gpu_begin, r.gpu_end});
    const auto times = stage_times(r);
    for (std::size_t t = 0; t < times.size(); ++t) recent[t].push_back(times[t]);
  }
  for (int i = 0; i < inputs && i < static_cast<int>(totals.input_frames.size()); ++i) {
    s.input_frames_measured[i] = totals.input_frames[i];
    s.input_fps[i] = static_cast<double>(totals.input_frames[i]) / s.measured_s;
  }
  s.gpu_busy_share =
      (folded_.gpu.length() + union_length(gpu, std::max(lo, folded_.gpu.frontier()), hi)) / s.measured_s;
  auto stats = [&](Stage st) {
    const auto k = static_cast<std::size_t>(st);
    return folded_.stages[k].stats_with(recent[k]);
  };
  s.decode = stats(Stage::decode);
  s.h2d = stats(Stage::h2d);
  s.compute = stats(Stage::compute);
  s.preprocess = stats(Stage::preprocess);
  s.infer = stats(Stage::infer);
  s.d2h = stats(Stage::d2h);
  s.sink = stats(Stage::sink);
  s.latency = stats(Stage::latency);
  s.live_lag = stats(Stage::live_lag);
  s.live_lag_last_ms = frames_.back().live_lag_ms;
  s.frames_sync_copies = totals.sync_copy_frames;
  s.shares = stage_shares(lo, hi, false);
  // The device spans cover only the kept frames; the folded union covers the whole window.
  s.shares.gpu_busy = s.gpu_busy_share;
  s.h2d_gbps = totals.h2d_s > 0 ? totals.h2d_bytes / totals.h2d_s / 1e9 : 0;
  s.d2h_gbps = totals.d2h_s > 0 ? totals.d2h_bytes / totals.d2h_s / 1e9 : 0;
  if (s.frames_measured > 0) {
    s.h2d_bytes_per_frame = totals.h2d_bytes / s.frames_measured;
    s.d2h_bytes_per_frame = totals.d2h_bytes / s.frames_measured;
  }
  RunShape shape = shape_;
  shape.fps = s.fps;
  shape.h2d_carried_gbps = s.h2d_bytes_per_frame * s.fps / 1e9;
  shape.d2h_carried_gbps = s.d2h_bytes_per_frame * s.fps / 1e9;
  s.bottleneck = judge_bottleneck(s.shares, shape);
}

void RunMetrics::add_waits(const HostWaits& waits) {
  for (const HostWait& w : waits) add_wait(w.kind, w.begin, w.end);
}

void RunMetrics::add_span(StageSpan kind, double begin, double end) {
  std::lock_guard lock(mutex_);
  Waits& spans = spans_[static_cast<std::size_t>(kind)];
  spans.recent.push_back({begin, end});
  fold_old_waits(spans);
}

void RunMetrics::set_shape(const RunShape& shape) {
  std::lock_guard lock(mutex_);
  shape_ = shape;
}

}  // namespace vidpipe
