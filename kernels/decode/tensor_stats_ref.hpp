// CPU twin of tensor_stats.cu: one frame's output summarised, no boxes.
#pragma once
#include <cstddef>

#include "common/image_types.hpp"

namespace vidpipe::reference {

DetectionList tensor_stats(const float* frame, std::size_t floats);

}  // namespace vidpipe::reference
