// The letterbox geometry and the CPU twin of resize_letterbox against values worked out by hand.
#include <gtest/gtest.h>

#include <vector>
#include "letterbox/letterbox.hpp"
#include "letterbox/resize_letterbox_ref.hpp"

namespace vidpipe {
namespace {

TEST(ReferenceLetterbox, GeometryTopLeftAndCentre) {
  const Letterbox tl = make_letterbox(3840, 2160, 416, 416, LetterboxAlign::top_left);
  EXPECT_EQ(tl.content_width, 416);
  EXPECT_EQ(tl.content_height, 234);
  EXPECT_EQ(tl.pad_x, 0);
  EXPECT_EQ(tl.pad_y, 0);
  const Letterbox c = make_letterbox(3840, 2160, 416, 416, LetterboxAlign::centre);
  EXPECT_EQ(c.pad_y, (416 - 234) / 2);
}

// Non-square pixels: a 200x100 frame whose pixels are twice as wide as tall is shown 400x100,
// and the network must see it so (416x104), not as stored (416x208).
TEST(ReferenceLetterbox, NonSquarePixelsFitAtTheDisplayAspect) {
  const Letterbox wide_pixels = make_letterbox(200, 100, 416, 416, LetterboxAlign::top_left, 2.0);
  EXPECT_EQ(wide_pixels.content_width, 416);
  EXPECT_EQ(wide_pixels.content_height, 104);
  EXPECT_FLOAT_EQ(wide_pixels.scale_x, 2.08f);  // dst pixels per stored pixel, each way
  EXPECT_FLOAT_EQ(wide_pixels.scale_y, 1.04f);
  const Letterbox tall_pixels = make_letterbox(200, 100, 416, 416, LetterboxAlign::top_left, 0.5);
  EXPECT_EQ(tall_pixels.content_width, 416);   // shown 100x100: a square
  EXPECT_EQ(tall_pixels.content_height, 416);
  const Letterbox square = make_letterbox(200, 100, 416, 416, LetterboxAlign::top_left);
  EXPECT_EQ(square.content_height, 208);
  EXPECT_EQ(square.scale_x, square.scale_y);
}

TEST(ReferenceResize, ConstantImageStaysConstantAndPaddingIsBlack) {
  const int w = 64, h = 32;
  std::vector<std::uint8_t> src(w * h * 3);
  for (std::size_t i = 0; i < src.size(); i += 3) src[i] = 10, src[i + 1] = 20, src[i + 2] = 30;
  const Letterbox lb = make_letterbox(w, h, 16, 16, LetterboxAlign::top_left);
  std::vector<std::uint8_t> dst(16 * 16 * 3, 77);
  reference::resize_letterbox(src.data(), w, h, lb, dst.data());
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      const std::uint8_t* p = &dst[(y * 16 + x) * 3];
      if (y < lb.content_height) {
        EXPECT_EQ(p[0], 10);
        EXPECT_EQ(p[2], 30);
      } else {
        EXPECT_EQ(p[0] + p[1] + p[2], 0) << "padding at " << x << "," << y;
      }
    }
}

TEST(ReferenceResize, HalvingAveragesPairs) {
  // 4x2 -> 2x1: half-pixel centres land between source pixels, so each output is
  // the mean of a 2x2 block.
  std::vector<std::uint8_t> src = {0, 0, 0, 100, 100, 100, 50, 50, 50, 250, 250, 250,
                                   0, 0, 0, 100, 100, 100, 50, 50, 50, 250, 250, 250};
  const Letterbox lb = make_letterbox(4, 2, 2, 1, LetterboxAlign::top_left);
  std::vector<std::uint8_t> dst(2 * 1 * 3);
  reference::resize_letterbox(src.data(), 4, 2, lb, dst.data());
  EXPECT_EQ(dst[0], 50);
  EXPECT_EQ(dst[3], 150);
}

// Bilinear sampling with half-pixel centres, worked by hand on gradients in each direction:
// halving 4 rows [0, 40, 120, 200] samples source rows 0.5 and 2.5: (0+40)/2 and (120+200)/2.
TEST(ReferenceResize, GradientsSampleTheTwoNearestRowsAndColumns) {
  const std::uint8_t column[4] = {0, 40, 120, 200};
  std::vector<std::uint8_t> tall(4 * 3), wide(4 * 3);
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 3; ++c) tall[i * 3 + c] = wide[i * 3 + c] = column[i];
  std::vector<std::uint8_t> out(2 * 3);
  reference::resize_letterbox(tall.data(), 1, 4, make_letterbox(1, 4, 1, 2, LetterboxAlign::top_left), out.data());
  EXPECT_EQ(out[0], 20);
  EXPECT_EQ(out[3], 160);
  reference::resize_letterbox(wide.data(), 4, 1, make_letterbox(4, 1, 2, 1, LetterboxAlign::top_left), out.data());
  EXPECT_EQ(out[0], 20);
  EXPECT_EQ(out[3], 160);
}

}  // namespace
}  // namespace vidpipe
