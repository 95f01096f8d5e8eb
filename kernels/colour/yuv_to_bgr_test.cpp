// The colour conversion's two sides checked against the standards and against libswscale:
// the CPU twin (yuv_to_bgr_ref.cpp) and the kernel's ColourMatrix (colour_matrix.cpp) each
// decode Y'CbCr made here from the standard's forward equations, at colours that do not
// clamp (greys, skin tones, mid-saturation primaries), for every standard, range and
// chroma layout; and the twin decodes what ffmpeg's own conversion made of an RGB patch.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <vector>

#include "colour/colour_matrix.hpp"
#include "colour/yuv_to_bgr_ref.hpp"
#include "memory/frame_layout.hpp"
#include "source/frame_colour.hpp"
#include "test_media.hpp"

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
  std::vector<std::uint8_t> bgr(ColourStandard s, ColourRange r) const {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(layout.width) * layout.height * 3);
    reference::yuv_to_bgr(bytes.data(), layout, s, r, out.data());
    return out;
  }
};

struct Rgb {
  int r, g, b;
};

// Greys, skin tones and mid-saturation primaries and secondaries: nothing near 0 or 255,
// so no channel clamps and a wrong coefficient cannot hide behind a clamp.
const std::vector<Rgb> test_colours = {{128, 128, 128}, {60, 60, 60},   {200, 200, 200}, {224, 172, 140},
                                       {141, 85, 54},   {255 - 64, 120, 90}, {180, 70, 70}, {70, 170, 80},
                                       {70, 90, 190},   {170, 170, 70}, {80, 170, 170},  {170, 80, 170}};

// The standard's Kr and Kb (ITU-R BT.601-7, BT.709-6, BT.2020-2), written out here again on
// purpose: this test must not take them from the code under test.
std::array<double, 2> kr_kb(ColourStandard s) {
  return s == ColourStandard::bt601 ? std::array{0.299, 0.114}
         : s == ColourStandard::bt709 ? std::array{0.2126, 0.0722}
                                      : std::array{0.2627, 0.0593};
}

// The forward equations, quantised as the range says: the codes an encoder would store.
std::array<std::uint8_t, 3> encode(Rgb c, ColourStandard s, ColourRange range) {
  const auto [kr, kb] = kr_kb(s);
  const double r = c.r / 255.0, g = c.g / 255.0, b = c.b / 255.0;
  const double y = kr * r + (1 - kr - kb) * g + kb * b;
  const double pb = (b - y) / (2 * (1 - kb)), pr = (r - y) / (2 * (1 - kr));
  const bool limited = range == ColourRange::limited;
  auto code = [](double v) { return static_cast<std::uint8_t>(std::lround(v)); };
  return {code(limited ? 16 + 219 * y : 255 * y), code(128 + (limited ? 224 : 255) * pb),
          code(128 + (limited ? 224 : 255) * pr)};
}

constexpr std::array standards = {ColourStandard::bt601, ColourStandard::bt709, ColourStandard::bt2020};
constexpr std::array ranges = {ColourRange::limited, ColourRange::full};

// Quantising Y'CbCr to 8 bits moves a decoded channel by up to ~1.5 codes.
constexpr int quantisation_codes = 2;

TEST(ColourTwin, DecodesTheStandardsEncodingOfNonClampingColours) {
  for (ColourStandard s : standards)
    for (ColourRange range : ranges)
      for (bool nv12 : {false, true})
        for (const Rgb& c : test_colours) {
          const auto ycc = encode(c, s, range);
          Frame f(4, 2, nv12);
          f.fill(ycc[0], ycc[1], ycc[2]);
          const auto bgr = f.bgr(s, range);
          const std::string what = std::string(to_string(s)) + " " + to_string(range) + (nv12 ? " nv12 " : " i420 ") +
                                   std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b);
          for (std::size_t px = 0; px < bgr.size(); px += 3) {
            EXPECT_NEAR(bgr[px + 2], c.r, quantisation_codes) << what;
            EXPECT_NEAR(bgr[px + 1], c.g, quantisation_codes) << what;
            EXPECT_NEAR(bgr[px + 0], c.b, quantisation_codes) << what;
          }
        }
}

// The kernel's matrix, applied exactly as yuv_to_bgr.cu applies it.
TEST(ColourMatrix, KernelCoefficientsDecodeTheStandardsEncoding) {
  for (ColourStandard s : standards)
    for (ColourRange range : ranges) {
      const ColourMatrix m = make_colour_matrix(s, range);
      for (const Rgb& c : test_colours) {
        const auto ycc = encode(c, s, range);
        const double y = m.y_scale * (ycc[0] - m.y_offset), cb = ycc[1] - 128.0, cr = ycc[2] - 128.0;
        const std::string what = std::string(to_string(s)) + " " + to_string(range) + " " + std::to_string(c.r) +
                                 "," + std::to_string(c.g) + "," + std::to_string(c.b);
        EXPECT_NEAR(y + m.cr_to_r * cr, c.r, quantisation_codes) << what;
        EXPECT_NEAR(y + m.cb_to_g * cb + m.cr_to_g * cr, c.g, quantisation_codes) << what;
        EXPECT_NEAR(y + m.cb_to_b * cb, c.b, quantisation_codes) << what;
      }
    }
}

// Values from the standards' own tables, by hand: BT.709 limited 75% white and pure red,
// BT.601 full-range (JPEG) green.
TEST(ColourTwin, HandWorkedTableValues) {
  Frame f(2, 2, false);
  f.fill(180, 128, 128);  // 75% grey: 16 + 0.75 * 219
  for (auto v : f.bgr(ColourStandard::bt709, ColourRange::limited)) EXPECT_NEAR(v, 191, 1);
  f.fill(63, 102, 240);   // BT.709 red
  auto bgr = f.bgr(ColourStandard::bt709, ColourRange::limited);
  EXPECT_NEAR(bgr[0], 0, 2);
  EXPECT_NEAR(bgr[1], 0, 2);
  EXPECT_NEAR(bgr[2], 255, 2);
  f.fill(150, 44, 21);    // BT.601 full-range green: Y=149.7, Cb=43.5, Cr=21.2
  bgr = f.bgr(ColourStandard::bt601, ColourRange::full);
  EXPECT_NEAR(bgr[0], 0, 2);
  EXPECT_NEAR(bgr[1], 255, 2);
  EXPECT_NEAR(bgr[2], 0, 2);
}

TEST(ColourTwin, ChromaIsSharedBy2x2Blocks) {
  Frame f(4, 4, false);
  f.fill(128, 128, 128);
  f.bytes[f.layout.offset[2] + 1] = 200;  // Cr of the top-right 2x2 block
  const auto bgr = f.bgr(ColourStandard::bt709, ColourRange::limited);
  auto red = [&](int x, int y) { return bgr[(y * 4 + x) * 3 + 2]; };
  EXPECT_EQ(red(2, 0), red(3, 1));
  EXPECT_GT(red(2, 0), red(0, 0) + 50);
  EXPECT_EQ(red(0, 0), red(1, 3));
}

// libswscale as the trusted tool: ffmpeg turns a flat RGB patch into yuv420p with each
// standard's matrix and range; the twin must give the patch back.
TEST(ColourTwin, DecodesWhatFfmpegEncoded) {
  const std::string dir = test::scratch_dir();
  const std::vector<std::pair<ColourStandard, const char*>> matrices = {
      {ColourStandard::bt601, "bt601"}, {ColourStandard::bt709, "bt709"}, {ColourStandard::bt2020, "bt2020"}};
  for (const auto& [standard, name] : matrices)
    for (ColourRange range : ranges)
      for (const Rgb& c : {test_colours[3], test_colours[6], test_colours[8], test_colours[9]}) {
        const std::string raw = dir + "/patch.yuv";
        char rgb[8];
        std::snprintf(rgb, sizeof rgb, "%02X%02X%02X", c.r, c.g, c.b);
        const std::string cmd = std::string("ffmpeg -loglevel error -y -f lavfi -i color=c=0x") + rgb +
                                ":size=16x16,format=rgb24 -frames:v 1 -vf scale=out_color_matrix=" + name +
                                ":out_range=" + (range == ColourRange::full ? "pc" : "tv") +
                                ",format=yuv420p -f rawvideo " + raw;
        ASSERT_EQ(test::run_command(cmd), 0) << cmd;
        std::ifstream in(raw, std::ios::binary);
        std::vector<char> planes(16 * 16 * 3 / 2);
        in.read(planes.data(), static_cast<std::streamsize>(planes.size()));
        ASSERT_TRUE(in) << "short read of " << raw;
        // A flat patch: its centre sample of each plane is every sample's value.
        auto at = [&](std::size_t i) { return static_cast<std::uint8_t>(planes[i]); };
        Frame f(2, 2, false);
        f.fill(at(8 * 16 + 8), at(256 + 4 * 8 + 4), at(256 + 64 + 4 * 8 + 4));
        const auto bgr = f.bgr(standard, range);
        const std::string what = std::string(name) + " " + to_string(range) + " " + rgb;
        EXPECT_NEAR(bgr[2], c.r, 3) << what;
        EXPECT_NEAR(bgr[1], c.g, 3) << what;
        EXPECT_NEAR(bgr[0], c.b, 3) << what;
      }
}

}  // namespace
}  // namespace vidpipe
