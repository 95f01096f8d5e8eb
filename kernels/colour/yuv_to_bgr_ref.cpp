#include <algorithm>
#include <cmath>

#include "colour/yuv_to_bgr_ref.hpp"

namespace vidpipe::reference {

static std::uint8_t to_u8(double v) {
  return static_cast<std::uint8_t>(std::nearbyint(std::clamp(v, 0.0, 255.0)));
}

void yuv_to_bgr(const std::uint8_t* frame, const YuvLayout& layout, const ColourMatrix& m,
                std::uint8_t* bgr) {
  for (int y = 0; y < layout.height; ++y) {
    const std::uint8_t* luma_row = frame + layout.offset[0] + static_cast<std::size_t>(y) * layout.pitch[0];
    const std::size_t crow = static_cast<std::size_t>(y / 2);
    for (int x = 0; x < layout.width; ++x) {
      double cb, cr;
      if (layout.nv12) {
        const std::uint8_t* uv = frame + layout.offset[1] + crow * layout.pitch[1] + (x / 2) * 2;
        cb = uv[0];
        cr = uv[1];
      } else {
        cb = frame[layout.offset[1] + crow * layout.pitch[1] + x / 2];
        cr = frame[layout.offset[2] + crow * layout.pitch[2] + x / 2];
      }
      const double yy = double(m.y_scale) * (luma_row[x] - double(m.y_offset));
      cb -= 128.0;
      cr -= 128.0;
      std::uint8_t* out = bgr + (static_cast<std::size_t>(y) * layout.width + x) * 3;
      out[0] = to_u8(yy + double(m.cb_to_b) * cb);
      out[1] = to_u8(yy + double(m.cb_to_g) * cb + double(m.cr_to_g) * cr);
      out[2] = to_u8(yy + double(m.cr_to_r) * cr);
    }
  }
}

}  // namespace vidpipe::reference
