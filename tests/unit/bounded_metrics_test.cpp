// Long runs in bounded memory: what the folded figures give must match what keeping
// every frame gives (exactly for counts, rates and shares; within 1% for percentiles).
#include <gtest/gtest.h>

#include <random>

#include "source/live_lag.hpp"
#include "metrics/memory_usage.hpp"
#include "metrics/run_metrics.hpp"
#include "metrics/streaming_stats.hpp"

namespace vidpipe {
namespace {

TEST(LogHistogram, PercentilesWithinOnePercentOfExact) {
  std::mt19937 rng(7);
  std::lognormal_distribution<double> times_ms(1.0, 1.2);
  std::vector<double> values;
  LogHistogram h;
  for (int i = 0; i < 50'000; ++i) {
    values.push_back(times_ms(rng));
    h.add(values.back());
  }
  const StageStats exact = stage_stats(values);
  EXPECT_NEAR(h.quantile(0.50), exact.p50_ms, 0.01 * exact.p50_ms);
  EXPECT_NEAR(h.quantile(0.99), exact.p99_ms, 0.01 * exact.p99_ms);
  EXPECT_EQ(h.count(), 50'000);
}

TEST(LogHistogram, ZeroAndHugeValuesLandInTheEndBuckets) {
  LogHistogram h;
  h.add(0.0);
  h.add(-1.0);
  EXPECT_EQ(h.quantile(0.99), 0.0);
  h.add(1e30);
  EXPECT_GT(h.quantile(1.0), 1e8);  // the last bucket, not an overflow
}

TEST(FoldedUnion, OverlapsCountOnceAndTheWindowStartClips) {
  FoldedUnion u;
  u.fold({0, 2}, 0.5);  // 0.5..2
  u.fold({1, 3}, 0.5);  // 2..3 is new
  u.fold({5, 6}, 0.5);
  EXPECT_DOUBLE_EQ(u.length(), union_length({{0, 2}, {1, 3}, {5, 6}}, 0.5, 10));
  EXPECT_DOUBLE_EQ(u.frontier(), 6);
}

// `frames` frames 10 ms apart with a 4 ms copy wait, 5 ms of GPU work, stage times
// that vary, and two inputs taking turns.
void long_run(RunMetrics& m, int frames) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(0.5, 1.5);
  for (int i = 0; i < frames; ++i) {
    const double t = 0.01 * (i + 1);
    m.add_wait(WaitKind::copy, t - 0.009, t - 0.005);
    FrameRecord r;
    r.index = i;
    r.source = i % 2;
    r.decoded_at = t - 0.01 * jitter(rng);
    r.sink_at = t;
    r.decode_ms = 3 * jitter(rng);
    r.h2d_ms = 2 * jitter(rng);
    r.h2d_bytes = 1'000'000;
    r.gpu_begin = t - 0.009;
    r.gpu_end = t - 0.004;
    r.faces = i % 3 == 0;
    m.add_frame(r);
  }
}

TEST(BoundedMetrics, FoldedFiguresMatchKeepingEveryFrame) {
  RunMetrics all(100, 1'000'000), bounded(100, 500);
  long_run(all, 20'000);
  long_run(bounded, 20'000);
  const Summary a = all.summarise(200.0, 2), b = bounded.summarise(200.0, 2);
  EXPECT_EQ(a.frames_kept, 20'000);
  EXPECT_EQ(b.frames_kept, 500);  // what stays in memory
  EXPECT_EQ(b.frames, a.frames);
  EXPECT_EQ(b.frames_measured, a.frames_measured);
  EXPECT_EQ(b.faces, a.faces);
  EXPECT_EQ(b.input_frames_measured, a.input_frames_measured);
  EXPECT_NEAR(b.fps, a.fps, 1e-9);
  EXPECT_NEAR(b.copy_wait_share, a.copy_wait_share, 1e-9);
  EXPECT_NEAR(b.copy_wait_share, 0.4, 1e-6);
  EXPECT_NEAR(b.gpu_busy_share, a.gpu_busy_share, 1e-9);
  EXPECT_NEAR(b.h2d_gbps, a.h2d_gbps, 1e-9);
  EXPECT_NEAR(b.decode.mean_ms, a.decode.mean_ms, 1e-9);
  EXPECT_NEAR(b.decode.p50_ms, a.decode.p50_ms, 0.01 * a.decode.p50_ms);
  EXPECT_NEAR(b.decode.p99_ms, a.decode.p99_ms, 0.01 * a.decode.p99_ms);
  EXPECT_NEAR(b.latency.p99_ms, a.latency.p99_ms, 0.01 * a.latency.p99_ms);
}

TEST(BoundedMetrics, NothingIsFoldedBeforeTheWarmupEnds) {
  RunMetrics m(300, 100);
  long_run(m, 250);
  const Summary s = m.summarise(3.0);
  EXPECT_TRUE(s.warmup_included);
  EXPECT_EQ(s.frames_kept, 250);  // all of them: the warm-up's end is not known yet
  EXPECT_EQ(s.frames_measured, 250);
}

TEST(BoundedMetrics, LiveLineCountsFramesPastTheKeptOnes) {
  RunMetrics m(0, 100);
  long_run(m, 300);  // 3 s at 100 fps, only 100 frames kept
  EXPECT_DOUBLE_EQ(m.live_figures(3.0)->fps, 100.0);
}

TEST(MemoryLog, SamplesAtTheWarmupAndEachDoubling) {
  MemoryLog log(10, false);
  for (int f = 1; f <= 100; ++f) log.on_frame(f);
  std::vector<std::int64_t> at;
  for (const MemorySample& s : log.samples()) at.push_back(s.frames);
  EXPECT_EQ(at, (std::vector<std::int64_t>{0, 10, 20, 40, 80}));
  EXPECT_EQ(log.after_warmup().frames, 10);
  EXPECT_GT(log.after_warmup().rss_mib, 0);
}

TEST(LiveLagClock, FlatWhenOnTimeGrowingWhenBehindRestartingWithTheClock) {
  LiveLagClock lag(1);
  EXPECT_DOUBLE_EQ(lag.lag_ms(0, 10.0, 0.0), 0);
  EXPECT_NEAR(lag.lag_ms(0, 10.1, 0.1), 0, 1e-9);   // on time
  EXPECT_NEAR(lag.lag_ms(0, 10.5, 0.2), 300, 1e-9);  // 0.3 s late
  EXPECT_NEAR(lag.lag_ms(0, 11.0, 0.0), 0, 1e-9);   // stream clock went back: a new anchor
}

}  // namespace
}  // namespace vidpipe
