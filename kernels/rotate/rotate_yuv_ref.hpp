// CPU twin of rotate_yuv.cu: one frame.
#pragma once
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void rotate_yuv(const std::uint8_t* src, const YuvLayout& from, int quarter_turns, std::uint8_t* dst,
                const YuvLayout& to);

}  // namespace vidpipe::reference
