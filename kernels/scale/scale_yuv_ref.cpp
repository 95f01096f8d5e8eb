#include "scale/scale_yuv_ref.hpp"

#include <algorithm>
#include <cmath>

namespace vidpipe::reference {
namespace {

// Where the source sample for output coordinate `out` lies, clamped to the picture.
double source_coordinate(int out, int out_size, int in_size) {
  return std::clamp((out + 0.5) * in_size / out_size - 0.5, 0.0, double(in_size - 1));
}

void scale_plane(const std::uint8_t* src, const PlaneView& in, std::uint8_t* dst, const PlaneView& out) {
  for (int y = 0; y < out.height; ++y) {
    const double sy = source_coordinate(y, out.height, in.height);
    const int y0 = static_cast<int>(sy), y1 = std::min(y0 + 1, in.height - 1);
    const double fy = sy - y0;
    for (int x = 0; x < out.width; ++x) {
      const double sx = source_coordinate(x, out.width, in.width);
      const int x0 = static_cast<int>(sx), x1 = std::min(x0 + 1, in.width - 1);
      const double fx = sx - x0;
      for (int c = 0; c < out.channels; ++c) {
        auto at = [&](int yy, int xx) {
          return double(src[in.offset + static_cast<std::size_t>(yy) * in.pitch + xx * in.channels + c]);
        };
        const double v = (at(y0, x0) * (1 - fx) + at(y0, x1) * fx) * (1 - fy) + (at(y1, x0) * (1 - fx) + at(y1, x1) * fx) * fy;
        dst[out.offset + static_cast<std::size_t>(y) * out.pitch + x * out.channels + c] =
            static_cast<std::uint8_t>(std::nearbyint(std::clamp(v, 0.0, 255.0)));
      }
    }
  }
}

}  // namespace

void scale_yuv(const std::uint8_t* src, const YuvLayout& from, std::uint8_t* dst, const YuvLayout& to) {
  for (int p = 0; p < from.planes(); ++p) scale_plane(src, plane_of(from, p), dst, plane_of(to, p));
}

}  // namespace vidpipe::reference
