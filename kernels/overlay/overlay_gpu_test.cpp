// The overlay kernels against their CPU twin, byte for byte: HUD lines of proportionally
// set text at several scales, and face boxes with score labels, on random frames.
#include <gtest/gtest.h>

#include <cstring>

#include "device/glyph_atlas.hpp"
#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_layout.hpp"
#include "overlay/overlay.cuh"
#include "overlay/overlay_ref.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

HudText hud_line(const char* text, int line) {
  HudText t;
  t.length = static_cast<int>(std::strlen(text));
  std::memcpy(t.text, text, t.length);
  t.line = line;
  return t;
}

struct OverlayCase {
  int width, height, scale;
  bool nv12;
};

class OverlayGpu : public ::testing::TestWithParam<OverlayCase> {};

TEST_P(OverlayGpu, KernelsDrawWhatTheTwinDraws) {
  REQUIRE_GPU();
  const OverlayCase c = GetParam();
  const YuvLayout l = make_yuv_layout(c.width, c.height, c.width, c.height, c.nv12);
  const GlyphAtlas atlas = make_glyph_atlas();
  const cuda::DeviceBuffer d_atlas = upload(atlas.pixels);
  const GlyphAtlasView on_device = atlas.view(d_atlas.as()), on_host = atlas.view(atlas.pixels.data());
  // A line wider than the frame is clipped; both lines hold narrow and wide glyphs.
  const HudText lines[2] = {hud_line("vidpipe  fps 1234.5  copy-wait 41.0%  Mj|W,i.l!", 0),
                            hud_line("bound by decode: 16 decoder threads delivered 281 fps", 1)};
  DetectionList list;
  list.count = 3;
  list.det[0] = {10.f, 60.f, 90.f, 120.f, 0.93f};
  list.det[1] = {c.width - 30.f, 5.f, c.width + 40.f, 50.f, 1.0f};  // past the right edge
  list.det[2] = {40.f, 0.f, 80.f, 30.f, 0.05f};                     // no room above
  OverlayStyle style;
  style.text_scale = c.scale;
  const auto frame = random_bytes(l.frame_bytes, 11 + c.width);
  cuda::DeviceBuffer d_frame = upload(frame);
  cuda::DeviceBuffer d_list(sizeof list);
  CUDA_CHECK(cudaMemcpy(d_list.as(), &list, sizeof list, cudaMemcpyHostToDevice));
  launch_draw_detections(d_frame.as(), l, 1, d_list.as<DetectionList>(), on_device, style, nullptr);
  for (const HudText& line : lines) launch_draw_hud(d_frame.as(), l, 1, line, on_device, c.scale, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_frame, l.frame_bytes);
  std::vector<std::uint8_t> want = frame;
  reference::draw_detections(want.data(), l, list, on_host, style);
  for (const HudText& line : lines) reference::draw_hud(want.data(), l, line, on_host, c.scale);
  std::size_t differ = 0, changed = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    differ += gpu[i] != want[i];
    changed += want[i] != frame[i];
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_GT(changed, 1000u) << "the twin drew next to nothing: the comparison proved little";
}

INSTANTIATE_TEST_SUITE_P(Sizes, OverlayGpu,
                         ::testing::Values(OverlayCase{320, 240, 1, false}, OverlayCase{640, 360, 2, true},
                                           OverlayCase{1921, 1081, 3, false}));

}  // namespace
}  // namespace vidpipe
