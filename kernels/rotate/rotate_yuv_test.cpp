// The CPU twin of rotate_yuv against turns worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "frame_pixels.hpp"
#include "memory/frame_layout.hpp"
#include "rotate/rotate_yuv_ref.hpp"

namespace vidpipe {
namespace {

using test::luma;

// A 4x2 picture with every luma value different:  1 2 3 4
//                                                   5 6 7 8
std::vector<std::uint8_t> numbered(const YuvLayout& l) {
  std::vector<std::uint8_t> f(l.frame_bytes);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) luma(f, l, x, y) = static_cast<std::uint8_t>(1 + x + 4 * y);
  return f;
}

TEST(ReferenceRotateYuv, QuarterTurnsClockwise) {
  const YuvLayout wide = make_yuv_layout(4, 2, 4, 2, false), tall = make_yuv_layout(2, 4, 2, 4, false);
  const std::vector<std::uint8_t> src = numbered(wide);
  std::vector<std::uint8_t> once(tall.frame_bytes), twice(wide.frame_bytes), thrice(tall.frame_bytes);
  reference::rotate_yuv(src.data(), wide, 1, once.data(), tall);
  reference::rotate_yuv(src.data(), wide, 2, twice.data(), wide);
  reference::rotate_yuv(src.data(), wide, 3, thrice.data(), tall);
  // Clockwise once: the left column (1, 5) becomes the top row, read right to left.
  const int cw[4][2] = {{5, 1}, {6, 2}, {7, 3}, {8, 4}};
  const int half[2][4] = {{8, 7, 6, 5}, {4, 3, 2, 1}};
  const int ccw[4][2] = {{4, 8}, {3, 7}, {2, 6}, {1, 5}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 2; ++x) {
      EXPECT_EQ(luma(once, tall, x, y), cw[y][x]) << x << "," << y;
      EXPECT_EQ(luma(thrice, tall, x, y), ccw[y][x]) << x << "," << y;
    }
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_EQ(luma(twice, wide, x, y), half[y][x]) << x << "," << y;
}

TEST(ReferenceRotateYuv, Nv12ChromaPairsTurnTogether) {
  const YuvLayout wide = make_yuv_layout(6, 4, 6, 4, true), tall = make_yuv_layout(4, 6, 4, 6, true);
  std::vector<std::uint8_t> src(wide.frame_bytes), dst(tall.frame_bytes);
  // Chroma is 3x2 pairs; pair (x, y) holds U = 10x + y, V = 100 + 10x + y.
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      src[wide.offset[1] + y * wide.pitch[1] + 2 * x] = static_cast<std::uint8_t>(10 * x + y);
      src[wide.offset[1] + y * wide.pitch[1] + 2 * x + 1] = static_cast<std::uint8_t>(100 + 10 * x + y);
    }
  reference::rotate_yuv(src.data(), wide, 1, dst.data(), tall);
  // Turned clockwise the 3x2 chroma is 2x3: destination (dx, dy) came from (x = dy, y = 1 - dx).
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      const int x = dy, y = 1 - dx;
      EXPECT_EQ(dst[tall.offset[1] + dy * tall.pitch[1] + 2 * dx], 10 * x + y);
      EXPECT_EQ(dst[tall.offset[1] + dy * tall.pitch[1] + 2 * dx + 1], 100 + 10 * x + y);
    }
}

}  // namespace
}  // namespace vidpipe
