// The CPU twin of narrow_yuv against values worked out by hand, one layout at a time.
#include <gtest/gtest.h>

#include <vector>

#include "frame_pixels.hpp"
#include "memory/frame_layout.hpp"
#include "narrow/narrow_yuv_ref.hpp"

namespace vidpipe {
namespace {

void put(std::vector<std::uint8_t>& f, const YuvLayout& l, int plane, int x, int y, unsigned value) {
  test::put_sample(f.data(), l, plane, x, y, value);
}

int at(const std::vector<std::uint8_t>& f, const YuvLayout& l, int plane, int x, int y) {
  return f[l.offset[plane] + static_cast<std::size_t>(y) * l.pitch[plane] + x];
}

std::vector<std::uint8_t> narrowed(const std::vector<std::uint8_t>& src, const YuvLayout& from) {
  const YuvLayout to = narrowed_layout(from);
  std::vector<std::uint8_t> dst(to.frame_bytes, 0);
  reference::narrow_yuv(src.data(), from, dst.data(), to);
  return dst;
}

constexpr PixelLayout yuv420p10{false, 1, 1, 2, 10, 0};
constexpr PixelLayout p010{true, 1, 1, 2, 10, 6};
constexpr PixelLayout yuv444p{false, 0, 0, 1, 8, 0};
constexpr PixelLayout yuv422p10{false, 1, 0, 2, 10, 0};

TEST(ReferenceNarrowYuv, TenBitLumaRoundsToEightBits) {
  const YuvLayout l = make_yuv_layout(4, 2, 4, 2, yuv420p10);
  std::vector<std::uint8_t> f(l.frame_bytes, 0);
  const unsigned ten[4] = {0, 513, 1021, 1023};  // 513/4 = 128.25, 1021/4 = 255.25, 1023/4 = 255.75
  for (int x = 0; x < 4; ++x) put(f, l, 0, x, 0, ten[x]);
  put(f, l, 0, 0, 1, 2);  // 0.5 rounds up
  put(f, l, 1, 0, 0, 512), put(f, l, 2, 0, 0, 64);
  const auto out = narrowed(f, l);
  const YuvLayout n = narrowed_layout(l);
  EXPECT_EQ(at(out, n, 0, 0, 0), 0);
  EXPECT_EQ(at(out, n, 0, 1, 0), 128);
  EXPECT_EQ(at(out, n, 0, 2, 0), 255);
  EXPECT_EQ(at(out, n, 0, 3, 0), 255);  // not 256 wrapped to 0
  EXPECT_EQ(at(out, n, 0, 0, 1), 1);
  EXPECT_EQ(at(out, n, 1, 0, 0), 128);
  EXPECT_EQ(at(out, n, 2, 0, 0), 16);
}

TEST(ReferenceNarrowYuv, P010SamplesSitInTheHighBits) {
  const YuvLayout l = make_yuv_layout(2, 2, 2, 2, p010);
  std::vector<std::uint8_t> f(l.frame_bytes, 0);
  put(f, l, 0, 1, 1, 940);  // limited-range white, 10-bit
  // One UV pair: U at word 0, V at word 1 of the chroma row.
  put(f, l, 1, 0, 0, 100), put(f, l, 1, 1, 0, 900);
  const auto out = narrowed(f, l);
  const YuvLayout n = narrowed_layout(l);
  EXPECT_EQ(at(out, n, 0, 1, 1), 235);
  EXPECT_EQ(at(out, n, 1, 0, 0), 25);
  EXPECT_EQ(at(out, n, 2, 0, 0), 225);
}

TEST(ReferenceNarrowYuv, FourFourFourChromaIsTheMeanOfEachTwoByTwo) {
  const YuvLayout l = make_yuv_layout(4, 2, 4, 2, yuv444p);
  std::vector<std::uint8_t> f(l.frame_bytes, 0);
  const unsigned u[2][4] = {{10, 20, 200, 200}, {30, 41, 100, 0}};
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) put(f, l, 1, x, y, u[y][x]), put(f, l, 2, x, y, 255 - u[y][x]);
  const auto out = narrowed(f, l);
  const YuvLayout n = narrowed_layout(l);
  EXPECT_EQ(at(out, n, 1, 0, 0), 25);   // (10+20+30+41+2)/4 = 25.75 -> 25 (integer mean, +2 rounds)
  EXPECT_EQ(at(out, n, 1, 1, 0), 125);  // (200+200+100+0+2)/4
  EXPECT_EQ(at(out, n, 2, 0, 0), 230);  // (245+235+225+214+2)/4 = 230.25
}

TEST(ReferenceNarrowYuv, FourTwoTwoAveragesTheTwoRows) {
  const YuvLayout l = make_yuv_layout(2, 2, 2, 2, yuv422p10);
  std::vector<std::uint8_t> f(l.frame_bytes, 0);
  put(f, l, 1, 0, 0, 400), put(f, l, 1, 0, 1, 600);  // mean 500 -> 125
  put(f, l, 2, 0, 0, 0), put(f, l, 2, 0, 1, 1023);    // mean 511.75 -> (2046+2)/4 = 512 -> 128
  const auto out = narrowed(f, l);
  const YuvLayout n = narrowed_layout(l);
  EXPECT_EQ(at(out, n, 1, 0, 0), 125);
  EXPECT_EQ(at(out, n, 2, 0, 0), 128);
}

TEST(ReferenceNarrowYuv, OddSizeRepeatsTheLastColumnAndRow) {
  const YuvLayout l = make_yuv_layout(3, 3, 3, 3, yuv444p);
  std::vector<std::uint8_t> f(l.frame_bytes, 0);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) put(f, l, 1, x, y, 10 * x + 100 * y);
  const auto out = narrowed(f, l);
  const YuvLayout n = narrowed_layout(l);
  EXPECT_EQ(n.chroma_width(), 2);
  EXPECT_EQ(at(out, n, 1, 1, 0), 20 + 50);   // column 2 twice, rows 0 and 1: (20+20+120+120)/4
  EXPECT_EQ(at(out, n, 1, 1, 1), 220);       // the corner sample alone, four times
  EXPECT_EQ(at(out, n, 1, 0, 1), 205);       // row 2 twice: (200+210+200+210)/4
}

TEST(ReferenceNarrowYuv, NarrowLayoutsAreTheirOwnNarrowedLayout) {
  const YuvLayout i420 = make_yuv_layout(64, 32, 64, 32, false);
  EXPECT_TRUE(i420.narrow());
  EXPECT_EQ(narrowed_layout(i420).frame_bytes, i420.frame_bytes);
  EXPECT_FALSE(make_yuv_layout(64, 32, 64, 32, p010).narrow());
  EXPECT_FALSE(make_yuv_layout(64, 32, 64, 32, yuv444p).narrow());
}

}  // namespace
}  // namespace vidpipe
