// What both executors share: the colour matrix for a frame and the overlay's size.
#include <algorithm>

#include "executor.hpp"

namespace vidpipe {

ColourMatrix matrix_for(const FrameColour& colour) {
  return make_colour_matrix(colour.standard, colour.range);
}

OverlayStyle overlay_style_for(const YuvLayout& l) {
  OverlayStyle s;
  s.thickness = std::max(2, l.height / 360);
  s.text_scale = std::max(1, l.height / 540);
  return s;
}

int hud_scale_for(const YuvLayout& l) { return std::max(1, l.height / 360); }

}  // namespace vidpipe
