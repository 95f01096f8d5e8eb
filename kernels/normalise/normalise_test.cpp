// The CPU twin of normalise against values worked out by hand.
#include <gtest/gtest.h>

#include <vector>
#include "normalise/normalise_ref.hpp"

namespace vidpipe {
namespace {

TEST(ReferenceNormalise, PlanarRgbWithMeanAndScale) {
  const std::vector<std::uint8_t> bgr = {10, 20, 30, 40, 50, 60};  // 2 pixels
  Normalisation n;
  n.mean[0] = 30;  // R
  n.mean[1] = 20;
  n.mean[2] = 10;
  for (float& s : n.scale) s = 0.5f;
  std::vector<float> out(6);
  reference::normalise(bgr.data(), 2, 1, n, out.data());
  EXPECT_FLOAT_EQ(out[0], 0.f);    // R of pixel 0: (30-30)/2
  EXPECT_FLOAT_EQ(out[1], 15.f);   // R of pixel 1: (60-30)/2
  EXPECT_FLOAT_EQ(out[2], 0.f);    // G of pixel 0
  EXPECT_FLOAT_EQ(out[5], 15.f);   // B of pixel 1: (40-10)/2
}

TEST(ReferenceNormalise, BgrOrderAndInterleavedChannels) {
  const std::vector<std::uint8_t> bgr = {10, 20, 30, 40, 50, 60};  // 2 pixels
  Normalisation n;
  n.bgr = true;
  n.nhwc = true;
  n.mean[0] = 10;  // B, the network's first channel
  for (float& s : n.scale) s = 1.f;
  std::vector<float> out(6);
  reference::normalise(bgr.data(), 2, 1, n, out.data());
  EXPECT_EQ(out, (std::vector<float>{0, 20, 30, 30, 50, 60}));  // pixel 0's B, G, R; then pixel 1's
}

}  // namespace
}  // namespace vidpipe
