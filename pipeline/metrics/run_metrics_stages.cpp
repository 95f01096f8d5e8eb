// RunMetrics' stage accounting: each stage's busy, starved and blocked shares of a window,
// from the intervals the readers, drivers and executors report and the frames' device spans.
#include <algorithm>

#include "metrics/run_metrics.hpp"

namespace vidpipe {
namespace {

std::size_t at(StageSpan kind) { return static_cast<std::size_t>(kind); }

}  // namespace

double RunMetrics::span_length(const Waits& waits, double lo, double hi, bool live) const {
  if (!live) return waits_length(waits, lo, hi);
  // Waits are recorded as they end, so the newest are at the back.
  std::vector<Interval> recent;
  for (auto it = waits.recent.rbegin(); it != waits.recent.rend() && it->end > lo; ++it) recent.push_back(*it);
  return union_length(recent, lo, hi);
}

StageShares RunMetrics::stage_shares(double lo, double hi, bool live) const {
  StageShares s;
  const double window = hi - lo;
  if (window <= 0) return s;
  auto share = [&](const Waits& w) { return std::min(1.0, span_length(w, lo, hi, live) / window); };
  s.decode.busy = share(spans_[at(StageSpan::decoding)]);
  s.decode.blocked = share(spans_[at(StageSpan::decode_blocked)]);
  s.copy_wait = share(copy_waits_);
  s.compute_wait = share(compute_waits_);
  s.submit.starved = share(spans_[at(StageSpan::submit_starved)]);
  // One thread: its waits do not overlap, so their lengths add up.
  s.submit.blocked = std::min(1.0 - s.submit.starved, s.copy_wait + s.compute_wait + share(output_waits_));
  s.submit.busy = std::max(0.0, 1.0 - s.submit.starved - s.submit.blocked);
  s.sink.busy = share(spans_[at(StageSpan::sink_writing)]);
  s.sink.starved = share(spans_[at(StageSpan::sink_starved)]);
  add_device_shares(s, lo, hi);
  return s;
}

// Upload, compute and download from the kept frames' device spans (a batch's spans are
// shared by its frames); on a run longer than keep_frames, over the part of the window the
// kept frames cover.
void RunMetrics::add_device_shares(StageShares& s, double lo, double hi) const {
  std::vector<Interval> up, compute, down, busy;
  double covered_from = hi;
  for (const FrameRecord& r : frames_) {
    if (r.gpu_end < lo) continue;
    const double n = r.batch;
    const double uploaded = r.gpu_begin + r.h2d_ms * n / 1e3;
    up.push_back({r.gpu_begin, uploaded});
    compute.push_back({uploaded, uploaded + r.compute_ms * n / 1e3});
    down.push_back({r.gpu_end - r.d2h_ms * n / 1e3, r.gpu_end});
    busy.push_back({r.gpu_begin, r.gpu_end});
    covered_from = std::min(covered_from, r.gpu_begin);
  }
  const double from = std::max(lo, covered_from), window = hi - from;
  if (window <= 0) return;
  s.upload.busy = union_length(up, from, hi) / window;
  s.compute.busy = union_length(compute, from, hi) / window;
  s.download.busy = union_length(down, from, hi) / window;
  s.gpu_busy = union_length(busy, from, hi) / window;
  // A device stage waits for the host to queue work; it has no downstream to block on.
  for (StageShare* d : {&s.upload, &s.compute, &s.download}) d->starved = 1.0 - d->busy;
}

}  // namespace vidpipe
