// Scales a 4:2:0 frame (I420 or NV12) to another size on the device, plane by plane,
// so that the sink downloads and encodes the size it writes (sink.width/height) rather
// than the decoded one: a 1080p output of a 4K input moves a quarter of the bytes.
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// Frame b of the batch at src + b*src_stride (laid out as `from`) goes to
// dst + b*dst_stride (laid out as `to`); both layouts have the same plane kind (nv12).
// Bilinear with half-pixel centres, as cv::resize(INTER_LINEAR): an exact 2:1
// downscale is the mean of each 2x2 block.
void launch_scale_yuv(const std::uint8_t* src, const YuvLayout& from, std::size_t src_stride, int batch,
                      std::uint8_t* dst, const YuvLayout& to, std::size_t dst_stride, cudaStream_t stream);

}  // namespace vidpipe
