// The CPU twin of scale_yuv against values worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "frame_pixels.hpp"
#include "memory/frame_layout.hpp"
#include "scale/scale_yuv_ref.hpp"

namespace vidpipe {
namespace {

using test::luma;

TEST(ReferenceScaleYuv, HalvingIsTheMeanOfEach2x2Block) {
  for (const bool nv12 : {false, true}) {
    const YuvLayout from = make_yuv_layout(8, 4, 8, 4, nv12), to = make_yuv_layout(4, 2, 4, 2, nv12);
    std::vector<std::uint8_t> src(from.frame_bytes), dst(to.frame_bytes, 0xAB);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 8; ++x) luma(src, from, x, y) = static_cast<std::uint8_t>(10 * x + 40 * y);
    reference::scale_yuv(src.data(), from, dst.data(), to);
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x) {
        // Block (2x..2x+1, 2y..2y+1): mean of 10x'+40y' over it.
        const int mean = 10 * (2 * x) + 5 + 40 * (2 * y) + 20;
        EXPECT_EQ(luma(dst, to, x, y), mean) << (nv12 ? "nv12 " : "i420 ") << x << "," << y;
      }
  }
}

TEST(ReferenceScaleYuv, ChromaKeepsItsValuesAndNv12PairsStayApart) {
  const YuvLayout from = make_yuv_layout(64, 36, 64, 36, true), to = make_yuv_layout(30, 16, 30, 16, true);
  std::vector<std::uint8_t> src(from.frame_bytes), dst(to.frame_bytes, 0xAB);
  for (int y = 0; y < from.chroma_height(); ++y)
    for (int x = 0; x < from.chroma_width(); ++x) {
      src[from.offset[1] + y * from.pitch[1] + 2 * x] = 90;       // U
      src[from.offset[1] + y * from.pitch[1] + 2 * x + 1] = 200;  // V
    }
  reference::scale_yuv(src.data(), from, dst.data(), to);
  for (int y = 0; y < to.chroma_height(); ++y)
    for (int x = 0; x < to.chroma_width(); ++x) {
      ASSERT_EQ(dst[to.offset[1] + y * to.pitch[1] + 2 * x], 90);
      ASSERT_EQ(dst[to.offset[1] + y * to.pitch[1] + 2 * x + 1], 200);
    }
}

TEST(ReferenceScaleYuv, DoublingRepeatsEdgesAndInterpolatesBetween) {
  const YuvLayout from = make_yuv_layout(2, 2, 2, 2, false), to = make_yuv_layout(4, 4, 4, 4, false);
  std::vector<std::uint8_t> src(from.frame_bytes), dst(to.frame_bytes);
  luma(src, from, 0, 0) = luma(src, from, 0, 1) = 0;
  luma(src, from, 1, 0) = luma(src, from, 1, 1) = 200;
  reference::scale_yuv(src.data(), from, dst.data(), to);
  // Output x samples source x = (x + 0.5) / 2 - 0.5: -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
  const int expected[4] = {0, 50, 150, 200};
  for (int x = 0; x < 4; ++x) EXPECT_EQ(luma(dst, to, x, 2), expected[x]) << x;
}

}  // namespace
}  // namespace vidpipe
