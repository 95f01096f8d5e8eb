// CPU twin of deinterlace.cu: one frame, in place.
#pragma once
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void deinterlace(std::uint8_t* frame, const YuvLayout& layout, bool keep_top);

}  // namespace vidpipe::reference
