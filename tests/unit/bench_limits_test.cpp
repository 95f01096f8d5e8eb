// The bench's forecast from its measured limits: the slowest limit binds, one stream adds
// copies and kernels up, and a missing limit is left out rather than taken as zero.
#include <gtest/gtest.h>

#include "tools/bench_limits.hpp"

namespace vidpipe {
namespace {

BenchLimits h200_like() {
  BenchLimits l;
  l.link_h2d_fps = l.link_d2h_fps = 4000;
  l.link_both_fps = 3900;
  l.stage_fps = {{{1, 1}, 5000}, {{4, 1}, 6000}, {{4, 4}, 9000}};
  return l;
}

TEST(BenchForecast, ManyStreamsTakeTheSlowestLimit) {
  BenchLimits l = h200_like();
  EXPECT_EQ(l.forecast(4, 4, 0).bound, "copy");
  EXPECT_DOUBLE_EQ(l.forecast(4, 4, 0).fps, 3900);
  l.decoder_fps = 380;
  EXPECT_EQ(l.forecast(4, 4, 0).bound, "decode");
  EXPECT_DOUBLE_EQ(l.forecast(4, 4, 0).fps, 380);
  l.decoder_fps = 0;
  l.stage_fps[{4, 1}] = 2000;
  EXPECT_EQ(l.forecast(4, 1, 0).bound, "compute");
  EXPECT_EQ(l.forecast(4, 4, 1.0).bound, "sink") << "a 1 ms sink is 1000 fps";
}

TEST(BenchForecast, OneStreamRunsCopiesAndKernelsInTurn) {
  const BenchLimits l = h200_like();
  const BenchLimits::Forecast f = l.forecast(1, 1, 0);
  EXPECT_NEAR(f.fps, 1 / (1 / 4000.0 + 1 / 4000.0 + 1 / 5000.0), 1e-9);
  EXPECT_EQ(f.bound, "copy") << "0.5 ms of copies against 0.2 ms of kernels";
}

TEST(BenchForecast, WithoutADeviceTheStageAloneBinds) {
  BenchLimits l;
  l.stage_fps = {{{1, 1}, 6.0}, {{2, 1}, 7.0}};
  l.decoder_fps = 900;
  EXPECT_DOUBLE_EQ(l.forecast(2, 1, 0).fps, 7.0);
  EXPECT_EQ(l.forecast(2, 1, 0).bound, "compute");
  EXPECT_DOUBLE_EQ(l.forecast(1, 1, 0).fps, 6.0);
  EXPECT_EQ(l.forecast(3, 1, 0).bound, "decode") << "no stage figure for 3 streams: the decoder is all there is";
}

}  // namespace
}  // namespace vidpipe
