#include <algorithm>
#include <cmath>

#include "letterbox/resize_letterbox_ref.hpp"

namespace vidpipe::reference {

void resize_letterbox(const std::uint8_t* src, int src_width, int src_height,
                      const Letterbox& lb, std::uint8_t* dst) {
  std::fill(dst, dst + static_cast<std::size_t>(lb.dst_width) * lb.dst_height * 3, 0);
  const double step_x = double(src_width) / lb.content_width;
  const double step_y = double(src_height) / lb.content_height;
  for (int cy = 0; cy < lb.content_height; ++cy) {
    const double sy = std::clamp((cy + 0.5) * step_y - 0.5, 0.0, double(src_height - 1));
    const int y0 = static_cast<int>(sy);
    const int y1 = std::min(y0 + 1, src_height - 1);
    const double fy = sy - y0;
    for (int cx = 0; cx < lb.content_width; ++cx) {
      const double sx = std::clamp((cx + 0.5) * step_x - 0.5, 0.0, double(src_width - 1));
      const int x0 = static_cast<int>(sx);
      const int x1 = std::min(x0 + 1, src_width - 1);
      const double fx = sx - x0;
      std::uint8_t* out =
          dst + (static_cast<std::size_t>(cy + lb.pad_y) * lb.dst_width + cx + lb.pad_x) * 3;
      for (int c = 0; c < 3; ++c) {
        auto at = [&](int yy, int xx) {
          return double(src[(static_cast<std::size_t>(yy) * src_width + xx) * 3 + c]);
        };
        const double value = (at(y0, x0) * (1 - fx) + at(y0, x1) * fx) * (1 - fy) +
                             (at(y1, x0) * (1 - fx) + at(y1, x1) * fx) * fy;
        out[c] = static_cast<std::uint8_t>(std::nearbyint(std::clamp(value, 0.0, 255.0)));
      }
    }
  }
}

}  // namespace vidpipe::reference
