#include <gtest/gtest.h>

#include <algorithm>
#include <opencv2/imgproc.hpp>

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
  int pen = 0;
  for (char c : text) pen += a.advance()[c - GlyphAtlasView::first];
  const int width = (pen + GlyphAtlasView::advance_units / 2) / GlyphAtlasView::advance_units;
  int white = 0, dark = 0;
  for (int y = 2; y < 2 + a.glyph_h; ++y)
    for (int x = 2; x < 2 + width; ++x) {
      white += f.luma(x, y) == 235;
      dark += f.luma(x, y) == 25;
    }
  EXPECT_GT(white, 20);
  EXPECT_GT(dark, white);
  EXPECT_EQ(f.luma(2 + width - 1, 5) % 235, 25 % 235) << "the box ends at the text's width";
  EXPECT_EQ(f.luma(2 + width, 5), 100);  // right of the box
}

// Which columns of a frame's luma rows [top, top + rows) hold ink (at least `ink`).
std::vector<bool> ink_columns(const std::uint8_t* luma, int pitch, int width, int top, int rows, int ink) {
  std::vector<bool> columns(width, false);
  for (int y = top; y < top + rows; ++y)
    for (int x = 0; x < width; ++x) columns[x] = columns[x] || luma[y * pitch + x] >= ink;
  return columns;
}

// The widest run of empty columns between the first and the last inked one.
int widest_gap(const std::vector<bool>& columns) {
  int widest = 0, run = 0;
  bool started = false;
  for (bool inked : columns) {
    if (inked) {
      if (started) widest = std::max(widest, run);
      started = true;
      run = 0;
    } else {
      ++run;
    }
  }
  return widest;
}

// The HUD sets a word as OpenCV's putText sets it in one string, not one glyph per fixed
// cell (which read "vi dpi pe"): the same inked columns, give or take rounding.
TEST(OverlayReference, HudTextIsProportionallySpacedLikePutText) {
  const GlyphAtlas a = make_glyph_atlas();
  for (const std::string word : {"vidpipe", "fill imi", "WMW ilil 1.0%"}) {
    GreyFrame f;
    std::fill(f.bytes.begin(), f.bytes.end(), 0);
    HudText hud;
    std::copy(word.begin(), word.end(), hud.text);
    hud.length = static_cast<int>(word.size());
    reference::draw_hud(f.bytes.data(), f.l, hud, a.view(a.pixels.data()), 1);
    cv::Mat typeset(f.l.height, f.l.width, CV_8UC1, cv::Scalar(0));
    int baseline = 0;
    const int ascent = cv::getTextSize("Mg", cv::FONT_HERSHEY_SIMPLEX, 0.5, 1, &baseline).height;
    cv::putText(typeset, word, {2, 2 + ascent + 1}, cv::FONT_HERSHEY_SIMPLEX, 0.5, cv::Scalar(255), 1, cv::LINE_AA);
    const auto hud_ink = ink_columns(f.bytes.data() + f.l.offset[0], f.l.pitch[0], f.l.width, 2, a.glyph_h, 235);
    const auto putText_ink = ink_columns(typeset.data, static_cast<int>(typeset.step), f.l.width, 2, a.glyph_h, 128);
    int both = 0, either = 0;
    for (int x = 0; x < f.l.width; ++x) {
      both += hud_ink[x] && putText_ink[x];
      either += hud_ink[x] || putText_ink[x];
    }
    ASSERT_GT(either, 10) << word;
    EXPECT_GT(static_cast<double>(both) / either, 0.9) << word << ": the HUD's letters are not where putText puts them";
    EXPECT_LE(widest_gap(hud_ink), widest_gap(putText_ink) + 1) << word << ": gaps wider than the font's own";
  }
}

TEST(OverlayReference, StyleScalesWithFrameSize) {
  EXPECT_EQ(overlay_style_for(make_yuv_layout(3840, 2160, 3840, 2160, false)).thickness, 6);
  EXPECT_EQ(overlay_style_for(make_yuv_layout(640, 360, 640, 360, false)).thickness, 2);
  EXPECT_EQ(hud_scale_for(make_yuv_layout(3840, 2160, 3840, 2160, false)), 6);
}

}  // namespace
}  // namespace vidpipe
