// CPU twin of normalise/normalise.cu.
// The CPU twin: plain loops in double precision, independent of the kernel's
// arithmetic. The tests hold the kernel to it, and `device: cpu` runs the pipeline on it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void normalise(const std::uint8_t* src, int width, int height, const Normalisation& norm,
               float* dst);

}  // namespace vidpipe::reference
