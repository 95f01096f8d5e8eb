#include <gtest/gtest.h>

#include "metrics/run_metrics.hpp"
#include "metrics/progress.hpp"
#include "metrics/startup.hpp"

#include <chrono>
#include <thread>

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

// The first frame's figures stay those of the first frame out, even once the kept window
// has folded it away.
TEST(Metrics, FirstFrameTimesSurviveFolding) {
  RunMetrics m(2, 3);
  FrameRecord first;
  first.decoded_at = 0.30;
  first.decode_ms = 50;
  first.gpu_begin = 0.32;
  first.gpu_end = 0.45;
  first.sink_at = 0.50;
  m.add_frame(first);
  steady_run(m);
  const Summary s = m.summarise(2.0);
  ASSERT_TRUE(s.first.seen);
  EXPECT_DOUBLE_EQ(s.first.decode_begin_s, 0.25);
  EXPECT_DOUBLE_EQ(s.first.decoded_s, 0.30);
  EXPECT_DOUBLE_EQ(s.first.gpu_begin_s, 0.32);
  EXPECT_DOUBLE_EQ(s.first.gpu_end_s, 0.45);
  EXPECT_DOUBLE_EQ(s.first.delivered_s, 0.50);
  EXPECT_FALSE(RunMetrics(2).summarise(1.0).first.seen);
}

TEST(Startup, ProcessAgeGrowsWithTheClock) {
  const double before = process_age_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const double after = process_age_seconds();
  ASSERT_GE(before, 0.0);
  // /proc counts the start in 10 ms ticks: the difference is the sleep within a tick or two.
  EXPECT_GE(after - before, 0.17);
}

TEST(Startup, LineNamesEachPartAndTheEndOnlyOnceKnown) {
  const StartupTimes startup{0.09, 0.21, 0.05, 0.04, 0.01};
  const FirstFrameTimes first{true, 0.31, 0.36, 0.37, 0.50, 0.52};
  const std::string during = startup_line(startup, first, {});
  EXPECT_NE(during.find("process 0.09 s"), std::string::npos) << during;
  EXPECT_NE(during.find("CUDA 0.21 s, inputs 0.05, executor 0.04, outputs 0.01"), std::string::npos) << during;
  EXPECT_NE(during.find("decoded 0.31-0.36 s, GPU stage 0.37-0.50, out at 0.52"), std::string::npos) << during;
  EXPECT_EQ(during.find("end:"), std::string::npos) << during;
  const std::string after = startup_line(startup, first, {0.12, 0.03});
  EXPECT_NE(after.find("outputs finished in 0.12 s, parts freed in 0.03 s"), std::string::npos) << after;
  const nlohmann::json j = startup_json({-1}, {});
  EXPECT_TRUE(j.at("process_s").is_null());
  EXPECT_TRUE(j.at("first_frame").is_null());
  EXPECT_TRUE(shutdown_json({}).at("release_s").is_null());
}

TEST(Metrics, LiveFiguresOncePerSecond) {
  RunMetrics m(0);
  steady_run(m);
  const auto figures = m.live_figures(1.0);
  ASSERT_TRUE(figures);
  EXPECT_DOUBLE_EQ(figures->fps, 10.0);
  EXPECT_NE(live_log_line(*figures, 0).find("fps    10.0"), std::string::npos);
  EXPECT_FALSE(m.live_figures(1.5));
  EXPECT_DOUBLE_EQ(m.last_live_figures()->fps, 10.0);
}

ProgressState half_done(std::int64_t dropped = 0) {
  LiveFigures f;
  f.frames = 50, f.fps = 123.4, f.copy_wait = 0.031, f.busy = 0.456;
  return {50, 100, f, dropped, ""};
}

TEST(Progress, HeadlineFiguresFirstThenTheCountAndABar) {
  EXPECT_EQ(progress_line(half_done(), 200), "fps 123.4 | copy-wait 3.1% | gpu busy 45.6% | 50/100 50% | ETA 0s "
                                             "[##############..............]");
  // The count appears once, and the drops beside the figures.
  EXPECT_EQ(progress_line(half_done(7), 80).find("dropped 7"), 46u);
  // Before the first second: only the count.
  EXPECT_EQ(progress_line({7, 0, std::nullopt, 0, ""}, 80), "7 frames");
  EXPECT_EQ(progress_line({120, 100, std::nullopt, 0, "done"}, 24), "120/100 100% | done");
  LiveFigures cpu = *half_done().figures;
  cpu.on_gpu = false;
  EXPECT_NE(progress_line({50, 100, cpu, 0, ""}, 80).find("cpu busy 45.6%"), std::string::npos);
}

// Narrow terminals lose whole fields from the right, never a cut number, and the line never
// reaches the last column (it would wrap and \r would redraw only its second half).
TEST(Progress, FieldsThatDoNotFitGoWholeFromTheRight) {
  // The bar shrinks to the room left; the fields before it are whole or absent.
  const auto fields = [](const std::string& line) { return line.substr(0, line.find(" [")); };
  const std::string whole = fields(progress_line(half_done(3), 1000));
  for (int columns = 10; columns <= 200; ++columns) {
    const std::string line = progress_line(half_done(3), columns);
    EXPECT_LT(static_cast<int>(line.size()), columns) << columns;
    const std::string shown = fields(line);
    EXPECT_EQ(whole.rfind(shown, 0), 0u) << "not a prefix at " << columns << ": " << line;
    if (shown.size() < whole.size())
      EXPECT_EQ(whole.substr(shown.size(), 3), " | ") << "cut inside a field at " << columns << ": " << line;
  }
  EXPECT_EQ(progress_line(half_done(), 60), "fps 123.4 | copy-wait 3.1% | gpu busy 45.6% | 50/100 50%");
}

}  // namespace
}  // namespace vidpipe

namespace vidpipe {
namespace {

// The live rate is over the last seconds only: 30 frames a second while they come, 0 once
// they stop, while fps (the whole window's) stays where it was.
TEST(RecentFps, FollowsTheLastSecondsAndFallsToZeroWhenFramesStop) {
  RunMetrics m(0);
  for (int i = 0; i < 300; ++i) {  // 10 s at 30 fps
    FrameRecord r;
    r.index = i;
    r.decoded_at = i / 30.0;
    r.sink_at = i / 30.0 + 0.01;
    m.add_frame(r);
  }
  EXPECT_NEAR(m.recent_fps(10.0), 30.0, 0.5);
  EXPECT_NEAR(m.recent_fps(12.5), 75 / 5.0, 0.5) << "half the window has frames";
  EXPECT_EQ(m.recent_fps(20.0), 0.0);
  EXPECT_GT(m.summarise(20.0, 1).fps, 25.0) << "the window's fps is not the live rate";
}

}  // namespace
}  // namespace vidpipe
