// The colour the detector sees from a wide frame: each layout vidpipe uploads as decoded
// (10-bit planar, P010, 4:2:2, 4:4:4 at 10 bits), at full and limited range, with the BT.601,
// BT.709 and BT.2020 matrices, through the CPU path (narrow, then the colour conversion,
// letterbox and normalisation: the kernels' twins) against R'G'B' worked out from the
// standards' own coefficients in double precision.
#include <gtest/gtest.h>

#include <cmath>

#include "device/executor.hpp"
#include "frame_pixels.hpp"
#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {

struct Coefficients {
  double kr, kb;
};
Coefficients of(ColourStandard s) {
  switch (s) {
    case ColourStandard::bt601: return {0.299, 0.114};
    case ColourStandard::bt709: return {0.2126, 0.0722};
    case ColourStandard::bt2020: return {0.2627, 0.0593};
  }
  return {};
}

// R'G'B' in 0..255 of one Y'CbCr sample of `bits`, by the standard's equations.
std::array<double, 3> expected_rgb(double y, double cb, double cr, int bits, ColourStandard s, ColourRange r) {
  const double unit = std::ldexp(1.0, bits - 8);  // one 8-bit code in this bit depth
  const bool full = r == ColourRange::full;
  const double luma = full ? y / (255 * unit) : (y - 16 * unit) / (219 * unit);
  const double pb = (cb - 128 * unit) / ((full ? 255 : 224) * unit), pr = (cr - 128 * unit) / ((full ? 255 : 224) * unit);
  const auto [kr, kb] = of(s);
  const double red = luma + 2 * (1 - kr) * pr, blue = luma + 2 * (1 - kb) * pb;
  const double green = (luma - kr * red - kb * blue) / (1 - kr - kb);
  auto to_255 = [](double v) { return std::clamp(v, 0.0, 1.0) * 255; };
  return {to_255(red), to_255(green), to_255(blue)};
}

// A frame of one colour in the layout (samples at their bit position, little-endian).
DecodedFrame solid_frame(const YuvLayout& l, unsigned y, unsigned cb, unsigned cr, FrameColour colour) {
  DecodedFrame f;
  f.frame = make_frame();
  f.frame->buf[0] = av_buffer_allocz(l.frame_bytes);
  f.frame->format = AV_PIX_FMT_YUV420P;  // a host frame; the layout says what it holds
  f.colour = colour;
  auto put = [&](int plane, int x, int row, unsigned v) { test::put_sample(f.frame->buf[0]->data, l, plane, x, row, v); };
  for (int row = 0; row < l.height; ++row)
    for (int x = 0; x < l.width; ++x) put(0, x, row, y);
  for (int row = 0; row < l.chroma_height(); ++row)
    for (int x = 0; x < l.chroma_width(); ++x)
      if (l.nv12) {
        put(1, 2 * x, row, cb);
        put(1, 2 * x + 1, row, cr);
      } else {
        put(1, x, row, cb);
        put(2, x, row, cr);
      }
  return f;
}

struct Layout {
  const char* name;
  PixelLayout pixels;
};

TEST(WideColour, EveryLayoutRangeAndMatrixGivesTheStandardsColours) {
  const Layout layouts[] = {{"yuv420p10", {false, 1, 1, 2, 10, 0}},
                            {"p010", {true, 1, 1, 2, 10, 6}},
                            {"yuv422p", {false, 1, 0, 1, 8, 0}},
                            {"yuv444p10", {false, 0, 0, 2, 10, 0}}};
  const FrameColour colours[] = {{ColourStandard::bt601, ColourRange::limited}, {ColourStandard::bt601, ColourRange::full},
                                 {ColourStandard::bt709, ColourRange::limited}, {ColourStandard::bt709, ColourRange::full},
                                 {ColourStandard::bt2020, ColourRange::limited}, {ColourStandard::bt2020, ColourRange::full}};
  for (const Layout& layout : layouts) {
    const YuvLayout l = make_yuv_layout(64, 32, 64, 32, layout.pixels);
    const double unit = std::ldexp(1.0, layout.pixels.sample_bits - 8);
    // A saturated orange-ish colour: every channel away from the clamps in both ranges.
    const unsigned y = static_cast<unsigned>(120 * unit), cb = static_cast<unsigned>(100 * unit),
                   cr = static_cast<unsigned>(170 * unit);
    for (const FrameColour& colour : colours) {
      ExecutorOptions eo;
      set_one_input(eo, l);
      eo.gpu.preprocess.width = eo.gpu.preprocess.height = 64;
      eo.gpu.preprocess.mean = {0, 0, 0};
      eo.overlay.boxes = eo.overlay.hud = false;
      const auto cpu = make_cpu_executor(eo);
      const DecodedFrame frame = solid_frame(l, y, cb, cr, colour);
      std::vector<std::uint8_t> out(eo.layouts[0].frame_bytes);
      std::uint8_t* p = out.data();
      cpu->submit(0, {&frame, 1}, {&p, 1}, HudLines{});
      cpu->wait_done(0);
      const std::vector<float> tensor = cpu->read_tensor(0);  // planar R, G, B at 64x64
      const std::array<double, 3> want = expected_rgb(y, cb, cr, layout.pixels.sample_bits, colour.standard, colour.range);
      const std::size_t centre = 16 * 64 + 32;  // inside the 64x32 picture at the top of the letterbox
      for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(tensor[c * 64 * 64 + centre] * 255.0, want[c], 2.0)
            << layout.name << " " << to_string(colour.standard) << " " << to_string(colour.range) << " channel " << c;
    }
  }
}

}  // namespace
}  // namespace vidpipe
