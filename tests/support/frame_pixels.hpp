// Samples of a frame held in host memory, by its layout: what the kernel twins' tests write
// and read.
#pragma once
#include <cstdint>
#include <vector>

#include "common/image_types.hpp"

namespace vidpipe::test {

inline std::uint8_t& luma(std::vector<std::uint8_t>& frame, const YuvLayout& l, int x, int y) {
  return frame[l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0] + x];
}

// Writes `value` as sample x of row y of `plane`, in the layout's word size and bit position
// (little-endian words; P010's samples sit in the high bits).
inline void put_sample(std::uint8_t* frame, const YuvLayout& l, int plane, int x, int y, unsigned value) {
  const unsigned word = value << l.sample_lsb;
  std::uint8_t* at = frame + l.offset[plane] + static_cast<std::size_t>(y) * l.pitch[plane] + x * l.sample_bytes;
  at[0] = static_cast<std::uint8_t>(word & 0xff);
  if (l.sample_bytes == 2) at[1] = static_cast<std::uint8_t>(word >> 8);
}

// A frame as the GPU stage works on it: narrowed to 8-bit 4:2:0 by the twin where it is wider
// (10-bit, 4:2:2, 4:4:4); empty where it is narrow already (use the frame itself).
std::vector<std::uint8_t> narrowed_copy(const std::uint8_t* frame, const YuvLayout& l);

}  // namespace vidpipe::test
