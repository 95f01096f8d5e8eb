// The overlay's font: printable ASCII rendered once by OpenCV's Hershey font into
// fixed cells, so kernels can draw text without a font engine.
#pragma once
#include <cstdint>
#include <vector>

#include "common/image_types.hpp"

namespace vidpipe {

struct GlyphAtlas {
  std::vector<std::uint8_t> pixels;  // GlyphAtlasView layout
  int glyph_w = 0, glyph_h = 0;
  GlyphAtlasView view(const std::uint8_t* data) const { return {data, glyph_w, glyph_h}; }
};

GlyphAtlas make_glyph_atlas();

}  // namespace vidpipe
