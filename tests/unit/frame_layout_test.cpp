#include <gtest/gtest.h>

#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {

TEST(FrameLayout, PlanarPlanesAlignedAndDisjoint) {
  const YuvLayout l = make_yuv_layout(3840, 2160, 3840, 2176, false);
  EXPECT_EQ(l.pitch[0] % 128, 0);
  EXPECT_EQ(l.pitch[0], 2 * l.pitch[1]);
  EXPECT_EQ(l.pitch[1], l.pitch[2]);
  for (std::size_t off : l.offset) EXPECT_EQ(off % 64, 0u);
  EXPECT_GE(l.offset[1], static_cast<std::size_t>(l.pitch[0]) * 2176);
  EXPECT_GE(l.offset[2], l.offset[1] + static_cast<std::size_t>(l.pitch[1]) * 1088);
  EXPECT_GE(l.frame_bytes, l.offset[2] + static_cast<std::size_t>(l.pitch[2]) * 1088);
  EXPECT_EQ(visible_bytes(l), 3840u * 2160 * 3 / 2);
}

TEST(FrameLayout, OddSizesRoundChromaUp) {
  const YuvLayout l = make_yuv_layout(641, 361, 641, 361, false);
  EXPECT_EQ(l.chroma_width(), 321);
  EXPECT_EQ(l.chroma_height(), 181);
  EXPECT_GE(l.pitch[1], 321);
  EXPECT_EQ(visible_bytes(l), 641u * 361 + 2u * 321 * 181);
}

TEST(FrameLayout, Nv12HasTwoPlanesOfEqualPitch) {
  const YuvLayout l = make_yuv_layout(1920, 1080, 1920, 1088, true);
  EXPECT_TRUE(l.nv12);
  EXPECT_EQ(l.pitch[0], l.pitch[1]);
  EXPECT_EQ(l.pitch[2], 0);
  EXPECT_GE(l.frame_bytes, l.offset[1] + static_cast<std::size_t>(l.pitch[1]) * 544);
}

}  // namespace
}  // namespace vidpipe
