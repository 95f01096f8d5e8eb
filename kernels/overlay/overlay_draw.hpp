// Geometry of the overlay (face boxes with score labels, HUD text) as the CUDA kernels
// walk it, one pixel per thread. The CPU twin (overlay_ref.cpp) is written separately, from
// what the overlay should look like, and the GPU tests hold the kernels to it byte for byte.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

struct PixelRect {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // inclusive
  VP_HD int width() const { return x1 - x0 + 1; }
  VP_HD int height() const { return y1 - y0 + 1; }
  VP_HD bool empty() const { return x1 < x0 || y1 < y0; }
};

VP_HD inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Sets a luma pixel and, at even coordinates, the chroma sample it shares with its 2x2 block.
VP_HD inline void paint(std::uint8_t* frame, const YuvLayout& l, int x, int y, std::uint8_t Y, std::uint8_t U,
                        std::uint8_t V) {
  frame[l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0] + x] = Y;
  if ((x | y) & 1) return;
  const std::size_t row = static_cast<std::size_t>(y / 2);
  if (l.nv12) {
    frame[l.offset[1] + row * l.pitch[1] + x] = U;
    frame[l.offset[1] + row * l.pitch[1] + x + 1] = V;
  } else {
    frame[l.offset[1] + row * l.pitch[1] + x / 2] = U;
    frame[l.offset[2] + row * l.pitch[2] + x / 2] = V;
  }
}

VP_HD inline PixelRect box_rect(const Detection& d, const YuvLayout& l) {
  PixelRect r;
  r.x0 = clampi(static_cast<int>(d.x0), 0, l.width - 1);
  r.y0 = clampi(static_cast<int>(d.y0), 0, l.height - 1);
  r.x1 = clampi(static_cast<int>(d.x1), 0, l.width - 1);
  r.y1 = clampi(static_cast<int>(d.y1), 0, l.height - 1);
  return r;
}

// Outline pixels of `r`, `t` thick, numbered 0..outline_count-1: top band, bottom
// band, then the left and right bands between them.
VP_HD inline int outline_count(const PixelRect& r, int t) {
  if (r.empty()) return 0;
  const int band = t < r.height() ? t : r.height();
  const int side_rows = r.height() - 2 * band > 0 ? r.height() - 2 * band : 0;
  const int side = t < r.width() ? t : r.width();
  return 2 * band * r.width() + 2 * side * side_rows;
}

VP_HD inline void outline_at(const PixelRect& r, int t, int i, int& x, int& y) {
  const int band = t < r.height() ? t : r.height();
  const int side = t < r.width() ? t : r.width();
  const int top = band * r.width();
  if (i < top) {
    x = r.x0 + i % r.width();
    y = r.y0 + i / r.width();
    return;
  }
  i -= top;
  if (i < top) {
    x = r.x0 + i % r.width();
    y = r.y1 - i / r.width();
    return;
  }
  i -= top;
  const int rows = r.height() - 2 * band;
  const int col = i / rows, row = i % rows;  // col < 2*side
  x = col < side ? r.x0 + col : r.x1 - (col - side);
  y = r.y0 + band + row;
}

// Score label "0.93": filled box above the face box (inside it at the top edge).
inline constexpr int label_chars = 4;

VP_HD inline PixelRect label_rect(const PixelRect& box, const YuvLayout& l, const GlyphAtlasView& a, int scale) {
  PixelRect r;
  const int w = label_chars * a.glyph_w * scale, h = a.glyph_h * scale;
  r.x0 = box.x0;
  r.y0 = box.y0 >= h ? box.y0 - h : box.y0;
  r.x1 = clampi(r.x0 + w - 1, 0, l.width - 1);
  r.y1 = clampi(r.y0 + h - 1, 0, l.height - 1);
  return r;
}

VP_HD inline char label_char(float score, int i) {
  const int hundredths = clampi(static_cast<int>(score * 100.f + 0.5f), 0, 100);
  if (i == 1) return '.';
  if (i == 0) return static_cast<char>('0' + hundredths / 100);
  if (i == 2) return static_cast<char>('0' + (hundredths / 10) % 10);
  return static_cast<char>('0' + hundredths % 10);
}

// Coverage (0..255) of glyph `c` at glyph pixel (gx, gy).
VP_HD inline std::uint8_t glyph_at(const GlyphAtlasView& a, char c, int gx, int gy) {
  int g = static_cast<unsigned char>(c) - GlyphAtlasView::first;
  if (g < 0 || g >= GlyphAtlasView::count) g = 0;
  return a.pixels[(static_cast<std::size_t>(g) * a.glyph_h + gy) * a.glyph_w + gx];
}

// Is frame pixel (x, y) of a text run starting at `origin` ink?
VP_HD inline bool text_ink(const GlyphAtlasView& a, int scale, int x, int y, const PixelRect& origin, char c) {
  const int gx = ((x - origin.x0) / scale) % a.glyph_w;
  const int gy = (y - origin.y0) / scale;
  return gy < a.glyph_h && glyph_at(a, c, gx, gy) > 127;
}

// The HUD: a darkened box top-left with the text in white.
VP_HD inline PixelRect hud_rect(const HudText& t, const YuvLayout& l, const GlyphAtlasView& a, int scale) {
  PixelRect r;
  r.x0 = 2 * scale;
  r.y0 = 2 * scale + t.line * (a.glyph_h + 2) * scale;
  r.x1 = clampi(r.x0 + t.length * a.glyph_w * scale - 1, 0, l.width - 1);
  r.y1 = clampi(r.y0 + a.glyph_h * scale - 1, 0, l.height - 1);
  return r;
}

}  // namespace vidpipe
