#include "source/segment_dealer.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace vidpipe {

SegmentDealer::SegmentDealer(int decoders, std::int64_t per_pass, bool loop, std::vector<double> expected_fps)
    : per_pass_(per_pass), loop_(loop), decoders_(static_cast<std::size_t>(std::max(decoders, 1))),
      expected_fps_(std::move(expected_fps)) {
  expected_fps_.resize(decoders_.size(), 0.0);
}

std::int64_t SegmentDealer::free_after(std::int64_t segment) const {
  std::int64_t s = std::max(segment + 1, reading_);
  while (owners_.count(s)) ++s;
  return s;
}

double SegmentDealer::rate(int decoder) const {
  const Decoder& d = decoders_[decoder];
  return d.figures.segments > 0 ? d.figures.fps() : expected_fps_[decoder];
}

bool SegmentDealer::rates_known() const {
  for (int k = 0; k < static_cast<int>(decoders_.size()); ++k)
    if (decoders_[k].alive && rate(k) <= 0 && decoders_[k].figures.segments == 0) return false;
  return true;
}

double SegmentDealer::fastest_rate() const {
  double fastest = 0;
  for (int k = 0; k < static_cast<int>(decoders_.size()); ++k)
    if (decoders_[k].alive) fastest = std::max(fastest, rate(k));
  return fastest;
}

bool SegmentDealer::fast(int decoder) const { return rate(decoder) >= fast_share * fastest_rate(); }

bool SegmentDealer::covered(std::int64_t segment, int decoder) const {
  for (int j = 0; j < static_cast<int>(decoders_.size()); ++j)
    if (j != decoder && decoders_[j].alive && fast(j) && decoders_[j].last < segment) return true;
  return false;
}

std::int64_t SegmentDealer::pick(int decoder) const {
  const std::int64_t lowest = free_after(decoders_[decoder].last);
  if (!rates_known() || fast(decoder)) return lowest;
  // While this decoder decodes one segment, the others together read this many.
  double others = 0;
  for (int j = 0; j < static_cast<int>(decoders_.size()); ++j)
    if (j != decoder && decoders_[j].alive) others += rate(j);
  const double own = std::max(rate(decoder), 1e-9);
  // At most a few passes' worth of decoders ahead: a decoder whose segment decoded no frame
  // has no rate, and a looping file has no end to stop the search at.
  const auto ahead = static_cast<std::int64_t>(std::min(std::ceil(others / own), max_ahead));
  // It starts on it once the reading has taken its last segment out of its lane (the lane
  // holds about one), and the others read `ahead` segments meanwhile.
  const std::int64_t target = std::max(reading_, decoders_[decoder].last + 1) + ahead;
  // Segments skipped are left to a faster decoder that can still take them; none is left
  // to nobody.
  std::int64_t s = lowest;
  while (s < target && covered(s, decoder) && valid(free_after(s))) s = free_after(s);
  return s;
}

std::int64_t SegmentDealer::claim(int decoder, double now_s) {
  std::lock_guard lock(mutex_);
  Decoder& d = decoders_[decoder];
  if (closed_ || !d.alive) return -1;
  const std::int64_t s = pick(decoder);
  if (!valid(s)) {
    d.alive = false;
    claimed_.notify_all();
    return -1;
  }
  owners_[s] = decoder;
  d.last = s;
  d.claimed_at = now_s;
  d.blocked_s = 0;
  claimed_.notify_all();
  return s;
}

void SegmentDealer::finished(int decoder, std::int64_t frames, double now_s) {
  std::lock_guard lock(mutex_);
  Decoder& d = decoders_[decoder];
  ++d.figures.segments;
  d.figures.frames += frames;
  d.figures.busy_s += std::max(0.0, now_s - d.claimed_at - d.blocked_s);
}

void SegmentDealer::blocked(int decoder, double seconds) {
  std::lock_guard lock(mutex_);
  decoders_[decoder].blocked_s += seconds;
}

void SegmentDealer::ended(int decoder) {
  std::lock_guard lock(mutex_);
  decoders_[decoder].alive = false;
  claimed_.notify_all();
}

void SegmentDealer::reading(std::int64_t segment) {
  std::lock_guard lock(mutex_);
  reading_ = std::max(reading_, segment);
  owners_.erase(owners_.begin(), owners_.lower_bound(reading_));  // read past: nobody asks again
}

int SegmentDealer::owner(std::int64_t segment) {
  reading(segment);
  std::unique_lock lock(mutex_);
  claimed_.wait(lock, [&] {
    return closed_ || !valid(segment) || owners_.count(segment) ||
           std::none_of(decoders_.begin(), decoders_.end(), [](const Decoder& d) { return d.alive; });
  });
  const auto it = owners_.find(segment);
  return it == owners_.end() ? -1 : it->second;
}

void SegmentDealer::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  claimed_.notify_all();
}

std::vector<SegmentDealer::DecoderFigures> SegmentDealer::figures() const {
  std::lock_guard lock(mutex_);
  std::vector<DecoderFigures> out;
  for (const Decoder& d : decoders_) out.push_back(d.figures);
  return out;
}

}  // namespace vidpipe
