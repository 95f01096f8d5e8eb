// CPU twin of letterbox/resize_letterbox.cu.
// The CPU twin: plain loops in double precision, independent of the kernel's
// arithmetic. The tests hold the kernel to it, and `device: cpu` runs the pipeline on it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void resize_letterbox(const std::uint8_t* src, int src_width, int src_height,
                      const Letterbox& lb, std::uint8_t* dst);

}  // namespace vidpipe::reference
