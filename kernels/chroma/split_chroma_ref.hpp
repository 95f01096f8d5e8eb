// CPU twin of split_chroma.cu.
#pragma once
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void split_chroma(const std::uint8_t* luma, int luma_pitch, const std::uint8_t* chroma, int chroma_pitch,
                  std::uint8_t* frame, const YuvLayout& to);

}  // namespace vidpipe::reference
