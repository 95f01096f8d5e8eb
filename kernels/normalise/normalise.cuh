// BGR8 interleaved -> the network's float input: RGB or BGR, planar (NCHW) or interleaved
// (NHWC), (value - mean) * scale per channel.
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// Input frame b at src + b*width*height*3; output frame b at dst + b*3*width*height.
void launch_normalise(const std::uint8_t* src, int width, int height, int batch,
                      const Normalisation& norm, float* dst, cudaStream_t stream);

}  // namespace vidpipe
