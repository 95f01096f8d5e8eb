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

// The atlas entry of `c`; characters outside the atlas draw as its first (a space).
VP_HD inline int glyph_index(char c) {
  const int g = static_cast<unsigned char>(c) - GlyphAtlasView::first;
  return g < 0 || g >= GlyphAtlasView::count ? 0 : g;
}

// Coverage (0..255) of glyph `c` at glyph pixel (gx, gy).
VP_HD inline std::uint8_t glyph_at(const GlyphAtlasView& a, char c, int gx, int gy) {
  return a.pixels[(static_cast<std::size_t>(glyph_index(c)) * a.glyph_h + gy) * a.glyph_w + gx];
}

// Where a character starts, in glyph pixels, `pen` advance units into a line: rounded
// from the line's exact position, so rounding does not add up along the line.
VP_HD inline int pen_column(int pen) { return (pen + GlyphAtlasView::advance_units / 2) / GlyphAtlasView::advance_units; }

// Width in glyph pixels of `n` characters set at their advances.
VP_HD inline int text_width(const GlyphAtlasView& a, const char* text, int n) {
  int pen = 0;
  for (int i = 0; i < n; ++i) pen += a.advance[glyph_index(text[i])];
  return pen_column(pen);
}

// Is frame pixel (x, y) ink, for `n` characters set at their advances from `origin`'s
// top-left corner, `scale` frame pixels per glyph pixel? Each pixel walks the line to find
// its character: a HUD line is at most 95 characters, and this keeps one thread per pixel.
VP_HD inline bool text_ink(const GlyphAtlasView& a, int scale, const char* text, int n, int x, int y,
                           const PixelRect& origin) {
  const int gy = (y - origin.y0) / scale, column = (x - origin.x0) / scale;
  int pen = 0, i = 0;
  while (i < n - 1 && column >= pen_column(pen + a.advance[glyph_index(text[i])])) pen += a.advance[glyph_index(text[i++])];
  const int gx = column - pen_column(pen);
  return n > 0 && gy < a.glyph_h && gx < a.glyph_w && glyph_at(a, text[i], gx, gy) > 127;
}

// Score label "0.93": filled box above the face box (inside it at the top edge).
inline constexpr int label_chars = 4;

struct LabelText {
  char c[label_chars];
};

VP_HD inline LabelText label_text(float score) {
  const int hundredths = clampi(static_cast<int>(score * 100.f + 0.5f), 0, 100);
  return {{static_cast<char>('0' + hundredths / 100), '.', static_cast<char>('0' + (hundredths / 10) % 10),
           static_cast<char>('0' + hundredths % 10)}};
}

VP_HD inline PixelRect label_rect(const PixelRect& box, const YuvLayout& l, const GlyphAtlasView& a, int scale,
                                  const LabelText& text) {
  PixelRect r;
  const int w = text_width(a, text.c, label_chars) * scale, h = a.glyph_h * scale;
  r.x0 = box.x0;
  r.y0 = box.y0 >= h ? box.y0 - h : box.y0;
  r.x1 = clampi(r.x0 + w - 1, 0, l.width - 1);
  r.y1 = clampi(r.y0 + h - 1, 0, l.height - 1);
  return r;
}

// The HUD: a darkened box top-left with the text in white.
VP_HD inline PixelRect hud_rect(const HudText& t, const YuvLayout& l, const GlyphAtlasView& a, int scale) {
  PixelRect r;
  r.x0 = 2 * scale;
  r.y0 = 2 * scale + t.line * (a.glyph_h + 2) * scale;
  r.x1 = clampi(r.x0 + text_width(a, t.text, t.length) * scale - 1, 0, l.width - 1);
  r.y1 = clampi(r.y0 + a.glyph_h * scale - 1, 0, l.height - 1);
  return r;
}

}  // namespace vidpipe
