// Reading one sample of a wide frame and rounding it to 8 bits: the arithmetic narrow_yuv's
// kernel and its CPU twin must share bit for bit (the twin test compares them exactly).
#pragma once
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe {

VP_HD inline unsigned read_sample(const std::uint8_t* row, int index, const YuvLayout& l) {
  if (l.sample_bytes == 1) return row[index];
  // Little-endian words, whatever the host: pool buffers hold what FFmpeg's *le formats wrote.
  const unsigned word = row[2 * index] | (static_cast<unsigned>(row[2 * index + 1]) << 8);
  return word >> l.sample_lsb;
}

// Rounds half up, as swscale does without dither; a 10-bit 1023 becomes 255, not 256.
VP_HD inline std::uint8_t to_8_bits(unsigned value, int bits) {
  if (bits <= 8) return static_cast<std::uint8_t>(value);
  const int drop = bits - 8;
  const unsigned rounded = (value + (1u << (drop - 1))) >> drop;
  return static_cast<std::uint8_t>(rounded > 255u ? 255u : rounded);
}

}  // namespace vidpipe
