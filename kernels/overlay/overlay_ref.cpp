// The CPU twin of overlay.cu, written from what the overlay is meant to look like rather
// than from overlay_draw.hpp's pixel walkers (which the kernels use):
// - a box is every pixel of the detection's rectangle (coordinates truncated to whole
//   pixels and clipped to the frame) that lies within `thickness` of its edge;
// - its label is the score as "0.93", set at the glyphs' advances at `text_scale`, dark ink on the
//   box colour, sitting on the box's top edge (inside it when there is no room above);
// - the HUD is its text, set the same way, in white on the frame's luma darkened to a quarter, two
//   pixels in from the top-left corner times the scale, one glyph row and two pixels per line.
// Chroma is written once per 2x2 block, by the block's top-left pixel.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "overlay/overlay_ref.hpp"

namespace vidpipe::reference {
namespace {

void put(std::uint8_t* frame, const YuvLayout& l, int x, int y, std::uint8_t luma, std::uint8_t cb, std::uint8_t cr) {
  frame[l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0] + x] = luma;
  if (x % 2 != 0 || y % 2 != 0) return;
  std::uint8_t* chroma = frame + l.offset[1] + static_cast<std::size_t>(y / 2) * l.pitch[1];
  if (l.nv12) {
    chroma[x] = cb;
    chroma[x + 1] = cr;
  } else {
    chroma[x / 2] = cb;
    frame[l.offset[2] + static_cast<std::size_t>(y / 2) * l.pitch[2] + x / 2] = cr;
  }
}

// The atlas entry of `c`; characters outside the atlas draw as its first (a space).
int glyph_of(char c) {
  const int glyph = static_cast<unsigned char>(c) - GlyphAtlasView::first;
  return glyph < 0 || glyph >= GlyphAtlasView::count ? 0 : glyph;
}

bool ink(const GlyphAtlasView& a, char c, int gx, int gy) {
  return a.pixels[(static_cast<std::size_t>(glyph_of(c)) * a.glyph_h + gy) * a.glyph_w + gx] > 127;
}

// Text `chars` set as a line of type: a pen starts at (left, top) and moves on by each
// character's advance (in 1/advance_units of a glyph pixel, exact), and each character
// starts at the whole glyph pixel nearest the pen, times `scale`; it paints the columns up
// to where the next one starts. Clipped to the frame.
template <class Paint>
void text_line(const YuvLayout& l, const GlyphAtlasView& a, int scale, int left, int top, const char* chars,
               int count, Paint paint) {
  const double units = GlyphAtlasView::advance_units;
  long pen = 0;
  for (int i = 0; i < count; ++i) {
    const long next = pen + a.advance[glyph_of(chars[i])];
    const int from = left + static_cast<int>(std::floor(pen / units + 0.5)) * scale;
    const int to = left + static_cast<int>(std::floor(next / units + 0.5)) * scale;
    for (int y = top; y < std::min(top + a.glyph_h * scale, l.height); ++y)
      for (int x = from; x < std::min(to, l.width); ++x) {
        const int gx = (x - from) / scale;
        paint(x, y, gx < a.glyph_w && ink(a, chars[i], gx, (y - top) / scale));
      }
    pen = next;
  }
}

}  // namespace

void draw_detections(std::uint8_t* frame, const YuvLayout& l, const DetectionList& list, const GlyphAtlasView& atlas,
                     const OverlayStyle& style) {
  for (int k = 0; k < list.count; ++k) {
    const Detection& d = list.det[k];
    const int x0 = std::clamp(static_cast<int>(d.x0), 0, l.width - 1), x1 = std::clamp(static_cast<int>(d.x1), 0, l.width - 1);
    const int y0 = std::clamp(static_cast<int>(d.y0), 0, l.height - 1), y1 = std::clamp(static_cast<int>(d.y1), 0, l.height - 1);
    const int t = style.thickness;
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        if (y < y0 + t || y > y1 - t || x < x0 + t || x > x1 - t) put(frame, l, x, y, style.y, style.u, style.v);
    const int label_h = atlas.glyph_h * style.text_scale;
    char score[8];
    std::snprintf(score, sizeof score, "%4.2f", std::clamp(static_cast<int>(d.score * 100.f + 0.5f), 0, 100) / 100.0);
    text_line(l, atlas, style.text_scale, x0, y0 >= label_h ? y0 - label_h : y0, score, 4, [&](int x, int y, bool on) {
      put(frame, l, x, y, on ? 16 : style.y, style.u, style.v);
    });
  }
}

void draw_hud(std::uint8_t* frame, const YuvLayout& l, const HudText& hud, const GlyphAtlasView& atlas, int scale) {
  if (hud.length == 0) return;
  const int top = 2 * scale + hud.line * (atlas.glyph_h + 2) * scale;
  text_line(l, atlas, scale, 2 * scale, top, hud.text, hud.length, [&](int x, int y, bool on) {
    const std::uint8_t luma = frame[l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0] + x];
    put(frame, l, x, y, on ? 235 : luma / 4, 128, 128);
  });
}

}  // namespace vidpipe::reference
