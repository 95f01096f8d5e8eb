// CPU twin of narrow_yuv.cu: one frame.
#pragma once
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void narrow_yuv(const std::uint8_t* src, const YuvLayout& from, std::uint8_t* dst, const YuvLayout& to);

}  // namespace vidpipe::reference
