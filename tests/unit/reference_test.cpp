// The CPU references checked against values worked out by hand, so the GPU tests
// (which compare kernels to these references) rest on something independent.
#include <gtest/gtest.h>

#include <vector>

#include "colour_matrix.hpp"
#include "frame_layout.hpp"
#include "letterbox.hpp"
#include "reference/reference.hpp"

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

TEST(ReferenceLetterbox, GeometryTopLeftAndCentre) {
  const Letterbox tl = make_letterbox(3840, 2160, 416, 416, LetterboxAlign::top_left);
  EXPECT_EQ(tl.content_width, 416);
  EXPECT_EQ(tl.content_height, 234);
  EXPECT_EQ(tl.pad_x, 0);
  EXPECT_EQ(tl.pad_y, 0);
  const Letterbox c = make_letterbox(3840, 2160, 416, 416, LetterboxAlign::centre);
  EXPECT_EQ(c.pad_y, (416 - 234) / 2);
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

}  // namespace
}  // namespace vidpipe
