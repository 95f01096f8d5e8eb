// CPU twin of scale_yuv.cu: one frame, computed in double precision.
#pragma once
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void scale_yuv(const std::uint8_t* src, const YuvLayout& from, std::uint8_t* dst, const YuvLayout& to);

}  // namespace vidpipe::reference
