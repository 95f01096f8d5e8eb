// The batching policy (source/fair_batcher.hpp) with made-up times: no clock, no sleeps.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "source/fair_batcher.hpp"

namespace vidpipe {
namespace {

// A frame as the tests see it: which input, which of its frames.
struct Tag {
  int input;
  int index;
  bool operator==(const Tag& o) const { return input == o.input && index == o.index; }
};

TEST(FairBatcher, AFullBatchIsDueAtOnce) {
  FairBatcher<Tag> b(2, 4);
  for (int k = 0; k < 2; ++k) b.push(0, {0, k}, 10.0);
  for (int k = 0; k < 2; ++k) b.push(1, {1, k}, 10.0);
  EXPECT_TRUE(std::isinf(b.due_s(4, 0.008)) && b.due_s(4, 0.008) < 0);
  EXPECT_EQ(b.take(4).size(), 4u);
  EXPECT_EQ(b.waiting(), 0u);
}

TEST(FairBatcher, APartBatchIsDueWhenItsOldestFrameHasWaitedTheTimeout) {
  FairBatcher<Tag> b(3, 4);
  EXPECT_TRUE(std::isinf(b.due_s(8, 0.008)) && b.due_s(8, 0.008) > 0) << "nothing waits: never due";
  b.push(2, {2, 0}, 5.000);
  b.push(0, {0, 0}, 5.003);
  EXPECT_DOUBLE_EQ(b.due_s(8, 0.008), 5.008);
  const std::vector<Tag> batch = b.take(8);
  ASSERT_EQ(batch.size(), 2u);
  // The next frame's wait counts from its own arrival, not the last batch's.
  b.push(1, {1, 0}, 5.020);
  EXPECT_DOUBLE_EQ(b.due_s(8, 0.008), 5.028);
}

TEST(FairBatcher, AnInputThatFloodsHoldsNoOtherBack) {
  FairBatcher<Tag> b(2, 8);
  for (int k = 0; k < 8; ++k) b.push(0, {0, k}, 1.0 + k * 1e-3);
  b.push(1, {1, 0}, 1.5);
  EXPECT_TRUE(b.full(0));
  EXPECT_FALSE(b.full(1));
  const std::vector<Tag> batch = b.take(4);
  ASSERT_EQ(batch.size(), 4u);
  int from_one = 0;
  for (const Tag& t : batch) from_one += t.input == 1;
  EXPECT_EQ(from_one, 1) << "the quiet input's frame goes in the first batch, not after the flood";
}

TEST(FairBatcher, InputsTakeTurnsWhenABatchCannotHoldOneOfEach) {
  constexpr int inputs = 3;
  FairBatcher<Tag> b(inputs, 8);
  for (int i = 0; i < inputs; ++i)
    for (int k = 0; k < 4; ++k) b.push(i, {i, k}, 0.0);
  std::map<int, int> taken;
  for (int round = 0; round < inputs; ++round)
    for (const Tag& t : b.take(2)) ++taken[t.input];
  for (int i = 0; i < inputs; ++i) EXPECT_EQ(taken[i], 2) << "input " << i;
}

// Many live inputs, batches smaller than their number: every input is served once in
// every inputs / batch batches, so a short queue never overflows while others are served.
TEST(FairBatcher, WithMoreInputsThanABatchEveryInputIsServedOnceARound) {
  constexpr int inputs = 64, batch = 16;
  FairBatcher<Tag> b(inputs, 2);
  for (int round = 0; round < 3; ++round) {
    // Every queue full, as when the GPU stage runs behind the cameras.
    for (int i = 0; i < inputs; ++i)
      for (int k = 0; !b.full(i); ++k) b.push(i, {i, 10 * round + k}, round);
    std::map<int, int> served;
    for (int k = 0; k < inputs / batch; ++k)
      for (const Tag& t : b.take(batch)) ++served[t.input];
    for (int i = 0; i < inputs; ++i) EXPECT_EQ(served[i], 1) << "input " << i << " in round " << round;
  }
}

TEST(FairBatcher, EachInputsFramesKeepTheirOrder) {
  FairBatcher<Tag> b(2, 8);
  for (int k = 0; k < 5; ++k) {
    b.push(0, {0, k}, k);
    b.push(1, {1, k}, k);
  }
  std::map<int, int> next;
  for (int round = 0; round < 4; ++round)
    for (const Tag& t : b.take(3)) EXPECT_EQ(t.index, next[t.input]++) << "input " << t.input;
}

TEST(FairBatcher, AStalledInputOnlyMissesItsTurns) {
  FairBatcher<Tag> b(4, 4);
  // Input 2 sends nothing; the others' frames are due by their own age, and go.
  for (int i : {0, 1, 3}) b.push(i, {i, 0}, 2.0);
  EXPECT_DOUBLE_EQ(b.due_s(4, 0.010), 2.010);
  const std::vector<Tag> batch = b.take(4);
  EXPECT_EQ(batch.size(), 3u);
}

TEST(FairBatcher, DroppingTakesTheInputsOldestFrame) {
  FairBatcher<Tag> b(2, 2);
  b.push(0, {0, 0}, 0.0);
  b.push(0, {0, 1}, 0.1);
  b.push(1, {1, 0}, 0.2);
  ASSERT_TRUE(b.full(0));
  const auto dropped = b.drop_oldest(0);
  ASSERT_TRUE(dropped.has_value());
  EXPECT_EQ(*dropped, (Tag{0, 0}));
  EXPECT_FALSE(b.full(0));
  EXPECT_EQ(b.waiting(1), 1u) << "another input's frames are never dropped for it";
  EXPECT_EQ(b.drop_oldest(0), (Tag{0, 1}));
  EXPECT_FALSE(b.drop_oldest(0).has_value()) << "an empty queue has nothing to drop";
}

}  // namespace
}  // namespace vidpipe
