#include "metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "clock.hpp"

namespace vidpipe {

double union_length(std::vector<Interval> v, double lo, double hi) {
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  double total = 0, cur_begin = 0, cur_end = -1e300;
  for (const Interval& i : v) {
    const double b = std::max(i.begin, lo), e = std::min(i.end, hi);
    if (e <= b) continue;
    if (b > cur_end) {
      if (cur_end > cur_begin) total += cur_end - cur_begin;
      cur_begin = b;
      cur_end = e;
    } else {
      cur_end = std::max(cur_end, e);
    }
  }
  if (cur_end > cur_begin) total += cur_end - cur_begin;
  return total;
}

StageStats stage_stats(std::vector<double> v) {
  StageStats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.mean_ms = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  // Nearest-rank percentiles: p99 of few samples is the largest one.
  auto pct = [&](double p) {
    const auto rank = static_cast<std::size_t>(std::ceil(p * v.size()));
    return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
  };
  s.p50_ms = pct(0.50);
  s.p99_ms = pct(0.99);
  return s;
}

void RunMetrics::add_wait(WaitKind kind, double begin, double end) {
  if (kind == WaitKind::output_buffer) return;  // the sink's backpressure, not copy cost
  std::lock_guard lock(mutex_);
  (kind == WaitKind::copy ? copy_waits_ : compute_waits_).push_back({begin, end});
}

void RunMetrics::add_frame(const FrameRecord& record) {
  std::lock_guard lock(mutex_);
  frames_.push_back(record);
}

std::string RunMetrics::live_line(double now) {
  std::lock_guard lock(mutex_);
  if (now - last_live_ < 1.0) return {};
  const double lo = last_live_;
  last_live_ = now;
  std::int64_t n = 0;
  std::vector<Interval> gpu;
  for (auto it = frames_.rbegin(); it != frames_.rend() && it->sink_at > lo; ++it) {
    ++n;
    gpu.push_back({it->gpu_begin, it->gpu_end});
  }
  const double window = now - lo;
  const double copy = union_length(copy_waits_, lo, now);
  live_fps_ = n / window;
  live_copy_wait_ = copy / window;
  return fmt::format("frames {:>6} | fps {:7.1f} | copy-wait {:5.1f}% | gpu busy {:5.1f}%",
                     frames_.size(), n / window, 100 * copy / window,
                     100 * union_length(gpu, lo, now) / window);
}

HudText RunMetrics::hud_text() const {
  std::lock_guard lock(mutex_);
  HudText h;
  const auto end = fmt::format_to_n(h.text, sizeof h.text - 1, "vidpipe  fps {:.1f}  copy-wait {:.1f}%", live_fps_,
                                    100 * live_copy_wait_);
  h.length = static_cast<int>(end.size);
  return h;
}

double RunMetrics::hud_fps() const {
  std::lock_guard lock(mutex_);
  return live_fps_;
}

Summary RunMetrics::summarise(double end_time, int inputs) const {
  std::lock_guard lock(mutex_);
  Summary s;
  s.frames = static_cast<std::int64_t>(frames_.size());
  s.wall_s = end_time;
  s.input_frames_measured.assign(inputs, 0);
  s.input_fps.assign(inputs, 0.0);
  if (frames_.empty()) return s;
  std::vector<FrameRecord> sorted = frames_;
  std::sort(sorted.begin(), sorted.end(),
            [](const FrameRecord& a, const FrameRecord& b) { return a.sink_at < b.sink_at; });
  // The window opens when the warm-up's last frame leaves the sink, so start-up
  // (allocation, first decode, encoder lookahead) stays out of the rates.
  std::size_t first = std::min<std::size_t>(warmup_frames_, sorted.size());
  double lo = first == 0 ? 0.0 : sorted[first - 1].sink_at;
  if (first >= sorted.size()) {
    s.warmup_skipped = true;
    first = 0;
    lo = 0.0;
  }
  const double hi = sorted.back().sink_at;
  s.first_frame_s = sorted.front().sink_at;
  for (const FrameRecord& r : sorted) {  // detections count over the whole run
    s.faces += r.faces;
    s.frames_with_faces += r.faces > 0;
  }
  s.frames_measured = static_cast<std::int64_t>(sorted.size() - first);
  s.measured_s = hi - lo;
  if (s.measured_s <= 0) return s;
  s.fps = s.frames_measured / s.measured_s;
  s.copy_wait_share = union_length(copy_waits_, lo, hi) / s.measured_s;
  s.compute_wait_share = union_length(compute_waits_, lo, hi) / s.measured_s;

  std::vector<Interval> gpu;
  std::vector<double> decode, h2d, compute, preprocess, infer, d2h, sink, latency, lag;
  double h2d_bytes = 0, d2h_bytes = 0, h2d_s = 0, d2h_s = 0;
  for (std::size_t i = first; i < sorted.size(); ++i) {
    const FrameRecord& r = sorted[i];
    if (r.source >= 0 && r.source < inputs) ++s.input_frames_measured[r.source];
    gpu.push_back({r.gpu_begin, r.gpu_end});
    decode.push_back(r.decode_ms);
    h2d.push_back(r.h2d_ms);
    compute.push_back(r.compute_ms);
    preprocess.push_back(r.preprocess_ms);
    infer.push_back(r.infer_ms);
    d2h.push_back(r.d2h_ms);
    sink.push_back(r.sink_ms);
    latency.push_back((r.sink_at - r.decoded_at) * 1e3);
    lag.push_back(r.live_lag_ms);
    h2d_bytes += r.h2d_bytes;
    d2h_bytes += r.d2h_bytes;
    h2d_s += r.h2d_ms / 1e3;
    d2h_s += r.d2h_ms / 1e3;
  }
  for (int i = 0; i < inputs; ++i) s.input_fps[i] = s.input_frames_measured[i] / s.measured_s;
  s.gpu_busy_share = union_length(gpu, lo, hi) / s.measured_s;
  s.decode = stage_stats(decode);
  s.h2d = stage_stats(h2d);
  s.compute = stage_stats(compute);
  s.preprocess = stage_stats(preprocess);
  s.infer = stage_stats(infer);
  s.d2h = stage_stats(d2h);
  s.sink = stage_stats(sink);
  s.latency = stage_stats(latency);
  s.live_lag = stage_stats(lag);
  s.live_lag_last_ms = sorted.back().live_lag_ms;
  s.h2d_gbps = h2d_s > 0 ? h2d_bytes / h2d_s / 1e9 : 0;
  s.d2h_gbps = d2h_s > 0 ? d2h_bytes / d2h_s / 1e9 : 0;
  return s;
}

ScopedWait::ScopedWait(RunMetrics& metrics, WaitKind kind, double clock_origin)
    : metrics_(metrics), kind_(kind), origin_(clock_origin), begin_(steady_seconds() - clock_origin) {}

ScopedWait::~ScopedWait() { metrics_.add_wait(kind_, begin_, steady_seconds() - origin_); }

}  // namespace vidpipe
