// A luma sample of a frame held in a host vector, by its layout: what the kernel twins'
// tests write and read.
#pragma once
#include <cstdint>
#include <vector>

#include "common/image_types.hpp"

namespace vidpipe::test {

inline std::uint8_t& luma(std::vector<std::uint8_t>& frame, const YuvLayout& l, int x, int y) {
  return frame[l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0] + x];
}

}  // namespace vidpipe::test
