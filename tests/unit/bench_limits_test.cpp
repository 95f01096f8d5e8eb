// The bench's forecast from its measured limits: one stream adds copies and kernels up, more
// streams approach the slowest station without passing it, and the decoder, the link both
// ways and the sink cap it; a missing limit is left out rather than taken as zero.
#include <gtest/gtest.h>

#include "tools/bench_limits.hpp"

namespace vidpipe {
namespace {

BenchLimits h200_like() {
  BenchLimits l;
  l.link_h2d_fps = l.link_d2h_fps = 4000;
  l.link_both_fps = 3900;
  l.stage_fps = {{{1, 1}, 5000}, {{2, 1}, 5000}, {{4, 1}, 6000}, {{8, 1}, 6000}, {{64, 1}, 6000}, {{4, 4}, 9000}};
  return l;
}

TEST(BenchForecast, OneStreamRunsCopiesAndKernelsInTurn) {
  const BenchLimits::Forecast f = h200_like().forecast(1, 1, 0);
  EXPECT_NEAR(f.fps, 1 / (1 / 4000.0 + 1 / 4000.0 + 1 / 5000.0), 1e-6);
  // 0.25 ms each way and 0.2 ms of kernels, one after another: no engine is busy even
  // half the time, so the one stream is the bound, not the copies.
  EXPECT_EQ(f.bound, "streams");
}

TEST(BenchForecast, TwoStreamsFollowMeanValueAnalysis) {
  // By hand: one stream's queues are X(1) * D = D / 0.7 ms = (0.357, 0.357, 0.286);
  // with two, each station's residence is D * (1 + queue): 0.339 + 0.339 + 0.257 = 0.936 ms.
  const double fps = h200_like().forecast(2, 1, 0).fps;
  EXPECT_NEAR(fps, 2 / (0.25e-3 * (1 + 0.25 / 0.7) * 2 + 0.2e-3 * (1 + 0.2 / 0.7)), 1.0);
}

TEST(BenchForecast, MoreStreamsApproachTheSlowestStationWithoutPassingIt) {
  const BenchLimits l = h200_like();
  double previous = 0;
  for (int streams : {1, 2, 4, 8, 64}) {
    const double fps = l.forecast(streams, 1, 0).fps;
    EXPECT_GT(fps, previous) << streams << " streams";
    EXPECT_LE(fps, 3900) << "the link both ways caps it";
    previous = fps;
  }
  EXPECT_GT(previous, 3800) << "64 streams all but fill the link";
  EXPECT_EQ(l.forecast(64, 1, 0).bound, "copy");
  EXPECT_EQ(l.forecast(2, 1, 0).bound, "streams") << "two streams keep the H2D engine busy ~54% of the time";
}

TEST(BenchForecast, TheDecoderAndTheSinkCapIt) {
  BenchLimits l = h200_like();
  l.decoder_fps = 380;
  EXPECT_EQ(l.forecast(4, 4, 0).bound, "decode");
  EXPECT_DOUBLE_EQ(l.forecast(4, 4, 0).fps, 380);
  l.decoder_fps = 0;
  EXPECT_EQ(l.forecast(4, 4, 4.0).bound, "sink") << "a 4 ms sink is 250 fps";
}

TEST(BenchForecast, SlowKernelsAreTheBound) {
  BenchLimits l = h200_like();
  l.stage_fps[{4, 1}] = 1000;
  EXPECT_EQ(l.forecast(4, 1, 0).bound, "compute");
  EXPECT_LE(l.forecast(4, 1, 0).fps, 1000);
}

TEST(BenchLimits, TheLowestLimitIsTheLowestMeasured) {
  BenchLimits l = h200_like();
  EXPECT_DOUBLE_EQ(l.lowest(4, 4), 3900) << "the link both ways, under the stage's 9000";
  EXPECT_DOUBLE_EQ(l.lowest(3, 1), 3900) << "no stage figure for 3 streams: the link alone";
  l.decoder_fps = 400;
  EXPECT_DOUBLE_EQ(l.lowest(4, 4), 400);
  EXPECT_DOUBLE_EQ(BenchLimits{}.lowest(1, 1), 0) << "nothing measured";
}

TEST(BenchForecast, WithoutADeviceTheStageAloneBinds) {
  BenchLimits l;
  l.stage_fps = {{{1, 1}, 6.0}, {{2, 1}, 7.0}};
  l.decoder_fps = 900;
  EXPECT_DOUBLE_EQ(l.forecast(2, 1, 0).fps, 7.0);
  EXPECT_EQ(l.forecast(2, 1, 0).bound, "compute");
  EXPECT_EQ(l.forecast(3, 1, 0).bound, "decode") << "no stage figure for 3 streams: the decoder is all there is";
}

}  // namespace
}  // namespace vidpipe
