#include "overlay/overlay_draw.hpp"
#include "overlay/overlay_ref.hpp"

namespace vidpipe::reference {

void draw_detections(std::uint8_t* frame, const YuvLayout& l, const DetectionList& list, const GlyphAtlasView& atlas,
                     const OverlayStyle& style) {
  // Detections are painted one after another, each outline then its label: the
  // order the GPU gives within one detection. (Across overlapping detections the
  // GPU's order is unspecified.)
  for (int k = 0; k < list.count; ++k) {
    const Detection& d = list.det[k];
    const PixelRect box = box_rect(d, l);
    for (int i = 0, n = outline_count(box, style.thickness); i < n; ++i) {
      int x, y;
      outline_at(box, style.thickness, i, x, y);
      paint(frame, l, x, y, style.y, style.u, style.v);
    }
    const PixelRect label = label_rect(box, l, atlas, style.text_scale);
    for (int y = label.y0; y <= label.y1; ++y)
      for (int x = label.x0; x <= label.x1; ++x) {
        const char c = label_char(d.score, (x - label.x0) / (atlas.glyph_w * style.text_scale));
        paint(frame, l, x, y, text_ink(atlas, style.text_scale, x, y, label, c) ? 16 : style.y, style.u, style.v);
      }
  }
}

void draw_hud(std::uint8_t* frame, const YuvLayout& l, const HudText& hud, const GlyphAtlasView& atlas, int scale) {
  if (hud.length == 0) return;
  const PixelRect r = hud_rect(hud, l, atlas, scale);
  for (int y = r.y0; y <= r.y1; ++y)
    for (int x = r.x0; x <= r.x1; ++x) {
      const char c = hud.text[(x - r.x0) / (atlas.glyph_w * scale)];
      const std::uint8_t old = frame[l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0] + x];
      paint(frame, l, x, y, text_ink(atlas, scale, x, y, r, c) ? 235 : old / 4, 128, 128);
    }
}

}  // namespace vidpipe::reference
