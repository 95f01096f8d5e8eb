// The CPU twin of yuv_to_bgr against values worked out by hand.
#include <gtest/gtest.h>

#include <vector>
#include "colour/colour_matrix.hpp"
#include "colour/yuv_to_bgr_ref.hpp"
#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {
struct Frame {
  YuvLayout layout;
  std::vector<std::uint8_t> bytes;
  Frame(int w, int h, bool nv12) : layout(make_yuv_layout(w, h, w, h, nv12)), bytes(layout.frame_bytes) {}
  void fill(std::uint8_t y, std::uint8_t u, std::uint8_t v) {
    for (int r = 0; r < layout.height; ++r)
      for (int c = 0; c < layout.width; ++c) bytes[layout.offset[0] + r * layout.pitch[0] + c] = y;
    for (int r = 0; r < layout.chroma_height(); ++r)
      for (int c = 0; c < layout.chroma_width(); ++c) {
        if (layout.nv12) {
          bytes[layout.offset[1] + r * layout.pitch[1] + 2 * c] = u;
          bytes[layout.offset[1] + r * layout.pitch[1] + 2 * c + 1] = v;
        } else {
          bytes[layout.offset[1] + r * layout.pitch[1] + c] = u;
          bytes[layout.offset[2] + r * layout.pitch[2] + c] = v;
        }
      }
  }
  std::vector<std::uint8_t> bgr(const ColourMatrix& m) const {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(layout.width) * layout.height * 3);
    reference::yuv_to_bgr(bytes.data(), layout, m, out.data());
    return out;
  }
};

TEST(ReferenceYuvToBgr, LimitedRangeBlackAndWhite) {
  const ColourMatrix m = make_colour_matrix(ColourStandard::bt709, ColourRange::limited);
  for (bool nv12 : {false, true}) {
    Frame f(4, 2, nv12);
    f.fill(16, 128, 128);
    for (auto v : f.bgr(m)) EXPECT_EQ(v, 0);
    f.fill(235, 128, 128);
    for (auto v : f.bgr(m)) EXPECT_EQ(v, 255);
  }
}

TEST(ReferenceYuvToBgr, Bt709RedPrimary) {
  // Pure red in BT.709 limited range: Y=63, Cb=102, Cr=240 (ITU-R BT.709 table).
  Frame f(2, 2, false);
  f.fill(63, 102, 240);
  const auto bgr = f.bgr(make_colour_matrix(ColourStandard::bt709, ColourRange::limited));
  EXPECT_NEAR(bgr[0], 0, 2);
  EXPECT_NEAR(bgr[1], 0, 2);
  EXPECT_NEAR(bgr[2], 255, 2);
}

TEST(ReferenceYuvToBgr, Bt601FullRangeGreen) {
  // Full-range BT.601 (JPEG) green: Y=149.7, Cb=43.5, Cr=21.2.
  Frame f(2, 2, false);
  f.fill(150, 44, 21);
  const auto bgr = f.bgr(make_colour_matrix(ColourStandard::bt601, ColourRange::full));
  EXPECT_NEAR(bgr[0], 0, 2);
  EXPECT_NEAR(bgr[1], 255, 2);
  EXPECT_NEAR(bgr[2], 0, 2);
}

TEST(ReferenceYuvToBgr, ChromaIsSharedBy2x2Blocks) {
  Frame f(4, 4, false);
  f.fill(128, 128, 128);
  f.bytes[f.layout.offset[2] + 1] = 200;  // Cr of the top-right 2x2 block
  const auto bgr = f.bgr(make_colour_matrix(ColourStandard::bt709, ColourRange::limited));
  auto red = [&](int x, int y) { return bgr[(y * 4 + x) * 3 + 2]; };
  EXPECT_EQ(red(2, 0), red(3, 1));
  EXPECT_GT(red(2, 0), red(0, 0) + 50);
  EXPECT_EQ(red(0, 0), red(1, 3));
}

}  // namespace
}  // namespace vidpipe
