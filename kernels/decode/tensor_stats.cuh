// The raw decoder on the GPU: each frame's output summarised (min, max, mean, argmax, values
// that are not finite) into its DetectionList, with no boxes.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/image_types.hpp"

namespace vidpipe {

// Frame b's `floats` values at out + b * floats; its summary into lists[b] (count 0).
void launch_tensor_stats(const float* out, int batch, std::size_t floats, DetectionList* lists, cudaStream_t stream);

}  // namespace vidpipe
