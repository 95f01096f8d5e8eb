#include "metrics/streaming_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace vidpipe {
namespace {

constexpr double smallest = 1e-4;  // ms: below this a value is "zero"
constexpr double ratio = 1.01;
const double log_ratio = std::log(ratio);
constexpr int bucket_count = 2800;  // smallest * 1.01^2800 ~ 35 h

std::size_t nearest_rank(double p, std::size_t n) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(n)));
  return std::clamp<std::size_t>(rank, 1, n);
}

int bucket_of(double v) {
  if (!(v > smallest)) return 0;
  const int b = 1 + static_cast<int>(std::log(v / smallest) / log_ratio);
  return std::min(b, bucket_count - 1);
}

// The middle of bucket b (geometric), so the error is at most half a bucket.
double bucket_value(int b) { return b == 0 ? 0.0 : smallest * std::pow(ratio, b - 0.5); }

}  // namespace

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
  s.mean_ms = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  // Nearest-rank percentiles: p99 of few samples is the largest one.
  s.p50_ms = v[nearest_rank(0.50, v.size()) - 1];
  s.p99_ms = v[nearest_rank(0.99, v.size()) - 1];
  return s;
}

LogHistogram::LogHistogram() : buckets_(bucket_count, 0) {}

void LogHistogram::add(double value) {
  ++buckets_[bucket_of(value)];
  ++count_;
}

void LogHistogram::merge(const LogHistogram& other) {
  for (int b = 0; b < bucket_count; ++b) buckets_[b] += other.buckets_[b];
  count_ += other.count_;
}

double LogHistogram::quantile(double p) const {
  if (count_ == 0) return 0;
  const auto rank = static_cast<std::int64_t>(nearest_rank(p, static_cast<std::size_t>(count_)));
  std::int64_t seen = 0;
  for (int b = 0; b < bucket_count; ++b) {
    seen += buckets_[b];
    if (seen >= rank) return bucket_value(b);
  }
  return bucket_value(bucket_count - 1);
}

void StageAccumulator::add(double value_ms) {
  histogram_.add(value_ms);
  sum_ += value_ms;
}

StageStats StageAccumulator::stats_with(const std::vector<double>& recent_ms) const {
  if (count() == 0) return stage_stats(recent_ms);
  LogHistogram all = histogram_;
  double sum = sum_;
  for (double v : recent_ms) {
    all.add(v);
    sum += v;
  }
  return {sum / static_cast<double>(all.count()), all.quantile(0.50), all.quantile(0.99)};
}

void FoldedUnion::fold(Interval i, double lo) {
  const double b = std::max({i.begin, lo, frontier_});
  if (i.end > b) length_ += i.end - b;
  frontier_ = std::max(frontier_, i.end);
}

}  // namespace vidpipe
