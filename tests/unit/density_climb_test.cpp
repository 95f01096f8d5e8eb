// The density climb's order: doubling until a step fails, then halving the gap.
#include <gtest/gtest.h>

#include <vector>

#include "tools/density_climb.hpp"

namespace vidpipe {
namespace {

// The steps a climb runs against a machine that holds up to `capacity` inputs.
std::vector<int> steps_against(int capacity, int max_inputs, int refine) {
  DensityClimb climb(max_inputs, refine);
  std::vector<int> steps;
  for (int n = climb.next(); n != 0; n = climb.next()) {
    steps.push_back(n);
    climb.record(n, n <= capacity);
  }
  return steps;
}

TEST(DensityClimb, DoublesThenHalvesTheGapBetweenHeldAndNot) {
  EXPECT_EQ(steps_against(40, 128, 2), (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 48, 40}));
  EXPECT_EQ(steps_against(20, 128, 2), (std::vector<int>{1, 2, 4, 8, 16, 32, 24, 20}));
  EXPECT_EQ(steps_against(20, 128, 3), (std::vector<int>{1, 2, 4, 8, 16, 32, 24, 20, 22}));
}

TEST(DensityClimb, TheResultIsTheMostHeldAndTheFewestNot) {
  DensityClimb climb(128, 2);
  for (int n = climb.next(); n != 0; n = climb.next()) climb.record(n, n <= 27);
  EXPECT_EQ(climb.held(), 24);
  EXPECT_EQ(climb.failed(), 28);
}

TEST(DensityClimb, StopsAtTheMostAllowedAndWhereNothingIsLeftToHalve) {
  EXPECT_EQ(steps_against(1000, 64, 2), (std::vector<int>{1, 2, 4, 8, 16, 32, 64})) << "every step held";
  EXPECT_EQ(steps_against(0, 64, 2), (std::vector<int>{1})) << "not even one: nothing to halve";
  EXPECT_EQ(steps_against(1, 64, 2), (std::vector<int>{1, 2})) << "1 held, 2 not: no step between";
  EXPECT_EQ(steps_against(2, 64, 2), (std::vector<int>{1, 2, 4, 3}));
  EXPECT_EQ(steps_against(40, 128, 0), (std::vector<int>{1, 2, 4, 8, 16, 32, 64})) << "refine 0: doubling only";
}

}  // namespace
}  // namespace vidpipe
