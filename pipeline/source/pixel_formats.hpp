// Which decoded pixel formats go into the pool as they are, for the GPU stage to narrow
// (narrow_yuv), and how their samples lie. Anything else (RGB, gray, paletted, 4:1:0,
// big-endian) is converted on the host by swscale, as before.
#pragma once
#include <optional>

extern "C" {
#include <libavutil/pixfmt.h>
}

#include "memory/frame_layout.hpp"

namespace vidpipe {

// Y'CbCr with 4:2:0, 4:2:2, 4:4:4 (or 4:4:0) chroma, planar or with interleaved UV (NV12,
// P010, P016), 8 to 16 bits little-endian; nullopt for the rest.
std::optional<PixelLayout> uploadable_layout(AVPixelFormat format);

// Whether swscale reads the format as full-range R'G'B' or gray (what it then turns into
// limited-range BT.601 Y'CbCr unless told otherwise).
bool is_rgb_or_gray(AVPixelFormat format);

}  // namespace vidpipe
