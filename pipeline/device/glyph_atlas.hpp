// The overlay's font: printable ASCII rendered once by OpenCV's Hershey font into cells as
// wide as its widest glyph, with each glyph's own advance, so kernels can set text with
// proportional spacing ("vidpipe", not "v i d p i p e") without a font engine.
#pragma once
#include <cstdint>
#include <vector>

#include "common/image_types.hpp"

namespace vidpipe {

struct GlyphAtlas {
  std::vector<std::uint8_t> pixels;  // GlyphAtlasView layout: the cells, then the advances
  int glyph_w = 0, glyph_h = 0;
  std::size_t cell_bytes() const { return static_cast<std::size_t>(GlyphAtlasView::count) * glyph_w * glyph_h; }
  const std::uint8_t* advance() const { return pixels.data() + cell_bytes(); }
  // The view of a copy of `pixels` at `data` (on the host or the device).
  GlyphAtlasView view(const std::uint8_t* data) const { return {data, glyph_w, glyph_h, data + cell_bytes()}; }
};

GlyphAtlas make_glyph_atlas();

}  // namespace vidpipe
