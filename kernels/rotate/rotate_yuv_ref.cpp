#include "rotate/rotate_yuv_ref.hpp"

namespace vidpipe::reference {
namespace {

// Written forwards, source to destination (the kernel goes the other way): turning a
// picture w x h clockwise once puts source column x on row x, source row y on column h-1-y.
void rotate_plane(const std::uint8_t* src, const PlaneView& in, int turns, std::uint8_t* dst, const PlaneView& out) {
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      int dx = x, dy = y;
      if (turns == 1) dx = in.height - 1 - y, dy = x;
      if (turns == 2) dx = in.width - 1 - x, dy = in.height - 1 - y;
      if (turns == 3) dx = y, dy = in.width - 1 - x;
      for (int c = 0; c < in.channels; ++c)
        dst[out.offset + static_cast<std::size_t>(dy) * out.pitch + dx * out.channels + c] =
            src[in.offset + static_cast<std::size_t>(y) * in.pitch + x * in.channels + c];
    }
}

}  // namespace

void rotate_yuv(const std::uint8_t* src, const YuvLayout& from, int quarter_turns, std::uint8_t* dst,
                const YuvLayout& to) {
  for (int p = 0; p < from.planes(); ++p) rotate_plane(src, plane_of(from, p), quarter_turns, dst, plane_of(to, p));
}

}  // namespace vidpipe::reference
