// CPU twin of colour/yuv_to_bgr.cu.
// The CPU twin: plain loops in double precision, written from the standards, not from
// the kernel's arithmetic. The tests hold the kernel to it, and `device: cpu` runs the pipeline on it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "colour/colour_matrix.hpp"
#include "common/image_types.hpp"

namespace vidpipe::reference {

// One frame (no batch): frame points at the start of a buffer laid out as `layout`.
// Takes the standard and range, not the kernel's ColourMatrix: see yuv_to_bgr_ref.cpp.
void yuv_to_bgr(const std::uint8_t* frame, const YuvLayout& layout, ColourStandard standard, ColourRange range,
                std::uint8_t* bgr);

}  // namespace vidpipe::reference
