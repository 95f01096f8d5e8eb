// Turns a 4:2:0 frame (I420 or NV12) upright by whole quarter turns, as a phone's display
// matrix asks, right after the upload: every later step (preprocessing, the detector, the
// overlay, the output) then works on the picture as it is meant to be seen.
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// `quarter_turns`: 1, 2 or 3 clockwise. `to` is `from` with width and height swapped for
// odd turns. Frame b at src + b*src_stride and dst + b*dst_stride.
void launch_rotate_yuv(const std::uint8_t* src, const YuvLayout& from, std::size_t src_stride, int batch,
                       int quarter_turns, std::uint8_t* dst, const YuvLayout& to, std::size_t dst_stride,
                       cudaStream_t stream);

}  // namespace vidpipe
