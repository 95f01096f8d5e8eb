#include "letterbox/letterbox.hpp"

#include <algorithm>
#include <cmath>

namespace vidpipe {

Letterbox make_letterbox(int src_width, int src_height, int dst_width, int dst_height,
                         LetterboxAlign align) {
  Letterbox lb;
  lb.dst_width = dst_width;
  lb.dst_height = dst_height;
  lb.scale = std::min(static_cast<float>(dst_width) / static_cast<float>(src_width),
                      static_cast<float>(dst_height) / static_cast<float>(src_height));
  lb.content_width = std::clamp(static_cast<int>(std::lround(src_width * lb.scale)), 1, dst_width);
  lb.content_height = std::clamp(static_cast<int>(std::lround(src_height * lb.scale)), 1, dst_height);
  if (align == LetterboxAlign::centre) {
    lb.pad_x = (dst_width - lb.content_width) / 2;
    lb.pad_y = (dst_height - lb.content_height) / 2;
  }
  return lb;
}

}  // namespace vidpipe
