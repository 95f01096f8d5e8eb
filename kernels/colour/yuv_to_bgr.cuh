// Colour conversion: decoded 4:2:0 frames -> interleaved BGR8 at full resolution.
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// `frames` holds `batch` frames laid out as `layout`, one every layout.frame_bytes.
// Output frame b starts at bgr + b * bgr_frame_stride, rows width*3 bytes apart.
void launch_yuv_to_bgr(const std::uint8_t* frames, const YuvLayout& layout, int batch,
                       const ColourMatrix& matrix, std::uint8_t* bgr,
                       std::size_t bgr_frame_stride, cudaStream_t stream);

}  // namespace vidpipe
