#include "source/frame_colour.hpp"

extern "C" {
#include <libavutil/pixfmt.h>
}

#include <algorithm>

namespace vidpipe {

FrameColour colour_of(const AVFrame& frame) {
  return colour_from(frame.colorspace, frame.color_range, frame.format, frame.width, frame.height);
}

FrameColour colour_from(AVColorSpace space, AVColorRange range, int pixel_format, int width, int height) {
  FrameColour c;
  switch (space) {
    case AVCOL_SPC_BT709: c.standard = ColourStandard::bt709; break;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:
    case AVCOL_SPC_FCC: c.standard = ColourStandard::bt601; break;
    case AVCOL_SPC_BT2020_NCL:
    case AVCOL_SPC_BT2020_CL: c.standard = ColourStandard::bt2020; break;
    default:
      // Same rule as most players: HD and larger is BT.709, SD is BT.601. The shorter side
      // decides, so a portrait phone clip stored sideways is judged as it is shown.
      c.standard = std::min(width, height) >= 720 ? ColourStandard::bt709 : ColourStandard::bt601;
  }
  const bool jpeg_format = pixel_format == AV_PIX_FMT_YUVJ420P || pixel_format == AV_PIX_FMT_YUVJ422P ||
                           pixel_format == AV_PIX_FMT_YUVJ444P || pixel_format == AV_PIX_FMT_YUVJ440P;
  c.range = (range == AVCOL_RANGE_JPEG || jpeg_format) ? ColourRange::full
                                                                   : ColourRange::limited;
  return c;
}

const char* to_string(ColourStandard s) {
  switch (s) {
    case ColourStandard::bt601: return "bt601";
    case ColourStandard::bt709: return "bt709";
    case ColourStandard::bt2020: return "bt2020";
  }
  return "?";
}
const char* to_string(ColourRange r) { return r == ColourRange::full ? "full" : "limited"; }

}  // namespace vidpipe
