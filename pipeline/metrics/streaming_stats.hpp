// Figures over an endless run in bounded memory. RunMetrics keeps the last frames
// whole (exact percentiles and a trace for short runs) and folds older ones into
// these: a log-bucketed histogram for percentiles, sums for means and rates, and a
// running union for the wait and GPU-busy shares.
#pragma once
#include <cstdint>
#include <vector>

namespace vidpipe {

struct Interval {
  double begin = 0, end = 0;
};

struct StageStats {
  double mean_ms = 0, p50_ms = 0, p99_ms = 0;
};

// Length of the union of `intervals` inside [lo, hi].
double union_length(std::vector<Interval> intervals, double lo, double hi);
// Mean and nearest-rank p50/p99 of `values_ms`, exact.
StageStats stage_stats(std::vector<double> values_ms);

// Non-negative values in buckets 1% wide (relative), so a percentile read from it
// is within 1% of the exact one; 0.1 us .. 35 h, anything outside lands in the end
// buckets. About 22 KB whatever the number of values.
class LogHistogram {
 public:
  LogHistogram();
  void add(double value);
  void merge(const LogHistogram& other);
  std::int64_t count() const { return count_; }
  // Nearest rank, like stage_stats(): the bucket holding the ceil(p*n)-th value.
  double quantile(double p) const;

 private:
  std::vector<std::int64_t> buckets_;
  std::int64_t count_ = 0;
};

// A stage's times folded out of the recent window.
class StageAccumulator {
 public:
  void add(double value_ms);
  std::int64_t count() const { return histogram_.count(); }
  // The stage over the folded values and `recent_ms` together: exact while nothing
  // has been folded, from the histogram (within 1%) once something has.
  StageStats stats_with(const std::vector<double>& recent_ms) const;

 private:
  LogHistogram histogram_;
  double sum_ = 0;
};

// The union length of intervals folded in roughly time order. Each interval counts
// only past the latest end folded so far, so overlaps are never counted twice; the
// intervals still kept whole are measured from frontier() on.
class FoldedUnion {
 public:
  void fold(Interval interval, double lo);
  double length() const { return length_; }
  double frontier() const { return frontier_; }

 private:
  double length_ = 0;
  double frontier_ = -1e300;
};

}  // namespace vidpipe
