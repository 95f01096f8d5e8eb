// Bilinear resize of BGR8 frames into the network's letterboxed input size.
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// Source frame b at src + b*src_frame_stride (rows src_width*3 bytes apart); output
// frame b at dst + b*dst_frame_stride, lb.dst_width x lb.dst_height, padding black.
void launch_resize_letterbox(const std::uint8_t* src, int src_width, int src_height,
                             std::size_t src_frame_stride, int batch, const Letterbox& lb,
                             std::uint8_t* dst, std::size_t dst_frame_stride,
                             cudaStream_t stream);

}  // namespace vidpipe
