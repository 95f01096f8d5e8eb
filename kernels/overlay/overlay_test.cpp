#include <gtest/gtest.h>

#include <algorithm>

#include "device/batch_packing.hpp"
#include "memory/frame_layout.hpp"
#include "device/glyph_atlas.hpp"
#include "overlay/overlay_ref.hpp"

namespace vidpipe {
namespace {

struct GreyFrame {
  YuvLayout l = make_yuv_layout(320, 240, 320, 240, false);
  std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(l.frame_bytes, 100);
  std::uint8_t luma(int x, int y) const { return bytes[l.offset[0] + y * l.pitch[0] + x]; }
  std::uint8_t u(int x, int y) const { return bytes[l.offset[1] + (y / 2) * l.pitch[1] + x / 2]; }
};

TEST(OverlayReference, GlyphAtlasHasInk) {
  const GlyphAtlas a = make_glyph_atlas();
  ASSERT_GT(a.glyph_w, 4);
  ASSERT_GT(a.glyph_h, 8);
  auto ink = [&](char c) {
    const auto* g = a.pixels.data() + static_cast<std::size_t>(c - 32) * a.glyph_w * a.glyph_h;
    return std::count_if(g, g + a.glyph_w * a.glyph_h, [](std::uint8_t v) { return v > 127; });
  };
  EXPECT_EQ(ink(' '), 0);
  EXPECT_GT(ink('8'), ink('1'));
  EXPECT_GT(ink('%'), 5);
}

TEST(OverlayReference, BoxOutlineAndLabel) {
  GreyFrame f;
  const GlyphAtlas a = make_glyph_atlas();
  DetectionList list;
  list.count = 1;
  list.det[0] = {100.f, 100.f, 200.f, 180.f, 0.87f};
  OverlayStyle style;
  style.thickness = 3;
  reference::draw_detections(f.bytes.data(), f.l, list, a.view(a.pixels.data()), style);
  EXPECT_EQ(f.luma(100, 150), style.y);  // left edge
  EXPECT_EQ(f.luma(198, 150), style.y);  // right edge, 3 thick: 198..200
  EXPECT_EQ(f.luma(200, 150), style.y);
  EXPECT_EQ(f.luma(201, 150), 100);      // just outside
  EXPECT_EQ(f.luma(197, 150), 100);      // just inside
  EXPECT_EQ(f.luma(150, 140), 100);      // the face itself untouched
  EXPECT_EQ(f.u(100, 150), style.u);
  // The label sits above the box: label background and black ink.
  int ink = 0, background = 0;
  for (int y = 100 - a.glyph_h; y < 100; ++y)
    for (int x = 100; x < 100 + 4 * a.glyph_w; ++x) {
      ink += f.luma(x, y) == 16;
      background += f.luma(x, y) == style.y;
    }
  EXPECT_GT(ink, 10);
  EXPECT_GT(background, ink);
}

TEST(OverlayReference, HudDarkensAndWrites) {
  GreyFrame f;
  const GlyphAtlas a = make_glyph_atlas();
  HudText hud;
  const std::string text = "fps 12.3";
  std::copy(text.begin(), text.end(), hud.text);
  hud.length = static_cast<int>(text.size());
  reference::draw_hud(f.bytes.data(), f.l, hud, a.view(a.pixels.data()), 1);
  int white = 0, dark = 0;
  for (int y = 2; y < 2 + a.glyph_h; ++y)
    for (int x = 2; x < 2 + hud.length * a.glyph_w; ++x) {
      white += f.luma(x, y) == 235;
      dark += f.luma(x, y) == 25;
    }
  EXPECT_GT(white, 20);
  EXPECT_GT(dark, white);
  EXPECT_EQ(f.luma(2 + hud.length * a.glyph_w + 1, 5), 100);  // right of the box
}

TEST(OverlayReference, StyleScalesWithFrameSize) {
  EXPECT_EQ(overlay_style_for(make_yuv_layout(3840, 2160, 3840, 2160, false)).thickness, 6);
  EXPECT_EQ(overlay_style_for(make_yuv_layout(640, 360, 640, 360, false)).thickness, 2);
  EXPECT_EQ(hud_scale_for(make_yuv_layout(3840, 2160, 3840, 2160, false)), 6);
}

}  // namespace
}  // namespace vidpipe
