// CPU twin of colour/yuv_to_bgr.cu.
// The CPU twin: plain loops in double precision, independent of the kernel's
// arithmetic. The tests hold the kernel to it, and `device: cpu` runs the pipeline on it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

// One frame (no batch): frame points at the start of a buffer laid out as `layout`.
void yuv_to_bgr(const std::uint8_t* frame, const YuvLayout& layout, const ColourMatrix& m,
                std::uint8_t* bgr);

}  // namespace vidpipe::reference
