// Reads a decoded frame's colour metadata (matrix and range) for the GPU's
// colour conversion. Unspecified metadata falls back to what players assume.
#pragma once
extern "C" {
#include <libavutil/frame.h>
}

#include "colour/colour_matrix.hpp"

namespace vidpipe {

struct FrameColour {
  ColourStandard standard = ColourStandard::bt709;
  ColourRange range = ColourRange::limited;
  bool operator==(const FrameColour&) const = default;
};

FrameColour colour_of(const AVFrame& frame);
FrameColour colour_from(AVColorSpace space, AVColorRange range, int pixel_format, int width, int height);
const char* to_string(ColourStandard s);
const char* to_string(ColourRange r);

}  // namespace vidpipe
