#include "narrow/narrow_yuv_ref.hpp"

#include <algorithm>
#include <vector>

#include "narrow/narrow_samples.hpp"

namespace vidpipe::reference {
namespace {

const std::uint8_t* row_of(const std::uint8_t* frame, const YuvLayout& l, int plane, int y) {
  return frame + l.offset[plane] + static_cast<std::size_t>(y) * l.pitch[plane];
}

// Written the other way round from the kernel: each source chroma sample is added to every
// 4:2:0 position whose luma block it lies under, then the sums are divided.
void narrow_chroma(const std::uint8_t* src, const YuvLayout& from, int c, std::uint8_t* dst, const YuvLayout& to) {
  const int plane = from.nv12 ? 1 : 1 + c;
  const int cw = to.chroma_width(), ch = to.chroma_height();
  std::vector<unsigned> sum(static_cast<std::size_t>(cw) * ch, 0);
  for (int ly = 0; ly < 2 * ch; ++ly)
    for (int lx = 0; lx < 2 * cw; ++lx) {
      // Past an odd edge the last luma column or row stands in for the missing one.
      const int x = std::min(lx, from.width - 1), y = std::min(ly, from.height - 1);
      const std::uint8_t* row = row_of(src, from, plane, y >> from.chroma_shift_y);
      const int sx = x >> from.chroma_shift_x;
      sum[static_cast<std::size_t>(ly / 2) * cw + lx / 2] += read_sample(row, from.nv12 ? 2 * sx + c : sx, from);
    }
  for (int cy = 0; cy < ch; ++cy)
    for (int cx = 0; cx < cw; ++cx)
      dst[to.offset[1 + c] + static_cast<std::size_t>(cy) * to.pitch[1 + c] + cx] =
          to_8_bits((sum[static_cast<std::size_t>(cy) * cw + cx] + 2) / 4, from.sample_bits);
}

}  // namespace

void narrow_yuv(const std::uint8_t* src, const YuvLayout& from, std::uint8_t* dst, const YuvLayout& to) {
  for (int y = 0; y < from.height; ++y)
    for (int x = 0; x < from.width; ++x)
      dst[to.offset[0] + static_cast<std::size_t>(y) * to.pitch[0] + x] =
          to_8_bits(read_sample(row_of(src, from, 0, y), x, from), from.sample_bits);
  for (int c = 0; c < 2; ++c) narrow_chroma(src, from, c, dst, to);
}

}  // namespace vidpipe::reference
