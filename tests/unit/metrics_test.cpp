#include <gtest/gtest.h>

#include "metrics/run_metrics.hpp"
#include "metrics/progress.hpp"

namespace vidpipe {
namespace {

TEST(Metrics, UnionMergesOverlapsAndClips) {
  EXPECT_DOUBLE_EQ(union_length({{0, 2}, {1, 3}, {5, 6}}, 0, 10), 4.0);
  EXPECT_DOUBLE_EQ(union_length({{0, 2}, {1, 3}, {5, 6}}, 1.5, 5.5), 2.0);
  EXPECT_DOUBLE_EQ(union_length({}, 0, 1), 0.0);
  EXPECT_DOUBLE_EQ(union_length({{3, 1}}, 0, 5), 0.0);
}

TEST(Metrics, NearestRankPercentiles) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  const StageStats s = stage_stats(v);
  EXPECT_DOUBLE_EQ(s.mean_ms, 50.5);
  EXPECT_DOUBLE_EQ(s.p50_ms, 50);
  EXPECT_DOUBLE_EQ(s.p99_ms, 99);
}

// Ten frames 0.1 s apart, a copy wait of 0.04 s and GPU work of 0.05 s in each.
void steady_run(RunMetrics& m) {
  for (int i = 0; i < 10; ++i) {
    const double t = 0.1 * (i + 1);
    m.add_wait(WaitKind::copy, t - 0.09, t - 0.05);
    m.add_wait(WaitKind::output_buffer, t - 0.09, t);  // not a copy: must not count
    FrameRecord r;
    r.index = i;
    r.decoded_at = t - 0.1;
    r.sink_at = t;
    r.h2d_ms = 4;
    r.h2d_bytes = 4'000'000;
    r.gpu_begin = t - 0.09;
    r.gpu_end = t - 0.04;
    m.add_frame(r);
  }
}

TEST(Metrics, SharesAndFpsAfterWarmup) {
  RunMetrics m(2);
  steady_run(m);
  const Summary s = m.summarise(1.0);
  EXPECT_EQ(s.frames, 10);
  EXPECT_EQ(s.frames_measured, 8);
  EXPECT_NEAR(s.measured_s, 0.8, 1e-9);  // from frame 2's sink time (0.2) to 1.0
  EXPECT_NEAR(s.fps, 10.0, 1e-9);
  EXPECT_NEAR(s.copy_wait_share, 0.4, 1e-9);
  EXPECT_NEAR(s.gpu_busy_share, 0.5, 1e-9);
  EXPECT_NEAR(s.h2d_gbps, 1.0, 1e-9);
  EXPECT_NEAR(s.latency.p50_ms, 100, 1e-6);
  EXPECT_FALSE(s.warmup_included);
}

TEST(Metrics, TooFewFramesMeasuresTheWholeRun) {
  RunMetrics m(50);
  steady_run(m);
  const Summary s = m.summarise(1.0);
  EXPECT_TRUE(s.warmup_included);
  EXPECT_EQ(s.frames_measured, 10);
  EXPECT_NEAR(s.fps, 10.0, 1e-9);
}

TEST(Metrics, LiveLineOncePerSecond) {
  RunMetrics m(0);
  steady_run(m);
  EXPECT_NE(m.live_line(1.0).find("fps    10.0"), std::string::npos);
  EXPECT_TRUE(m.live_line(1.5).empty());
}

TEST(Progress, BarCountsAndEta) {
  EXPECT_EQ(progress_bar(50, 100, 10.0, 10), "[#####.....] 50/100  50% ETA 5s");
  EXPECT_EQ(progress_bar(7, 0, 10.0), "7 frames");
  EXPECT_EQ(progress_bar(120, 100, 0.0, 4), "[####] 120/100 100% ETA ?");
  // Sized to the terminal: a narrower bar, and the rest cut before the last column.
  const std::string rest(200, 'x');
  for (int columns : {40, 80, 120, 200}) {
    const std::string line = progress_line(50, 100, 10.0, " | " + rest, columns);
    EXPECT_EQ(static_cast<int>(line.size()), columns - 1) << columns;
    EXPECT_EQ(line.rfind("[", 0), 0u) << line;
  }
  EXPECT_EQ(progress_line(50, 100, 10.0, " | short", 120), "[#######........] 50/100  50% ETA 5s | short");
}

}  // namespace
}  // namespace vidpipe
