// Narrows a frame uploaded as decoded (10/12/16-bit samples, 4:2:2 or 4:4:4 chroma, planar
// or P010's interleaved UV) to the 8-bit 4:2:0 every later step works on. On the GPU, after
// the upload: the host then never touches the pixels (swscale on a 4K 4:4:4 frame cost more
// than its decode), and the link carries the decoder's own bytes.
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// `to`: three 8-bit 4:2:0 planes of `from`'s size (narrowed_layout). Luma keeps its samples
// (rounded to 8 bits); a chroma sample is the mean of the source chroma under its 2x2 luma
// block. Frame b at src + b*src_stride and dst + b*dst_stride.
void launch_narrow_yuv(const std::uint8_t* src, const YuvLayout& from, std::size_t src_stride, int batch,
                       std::uint8_t* dst, const YuvLayout& to, std::size_t dst_stride, cudaStream_t stream);

}  // namespace vidpipe
