#include "letterbox/letterbox.hpp"

#include <algorithm>
#include <cmath>

namespace vidpipe {

Letterbox make_letterbox(int src_width, int src_height, int dst_width, int dst_height,
                         LetterboxAlign align, double sample_aspect) {
  Letterbox lb;
  lb.dst_width = dst_width;
  lb.dst_height = dst_height;
  if (!(sample_aspect > 0)) sample_aspect = 1.0;
  if (align == LetterboxAlign::stretch) {
    lb.scale_x = static_cast<float>(static_cast<double>(dst_width) / src_width);
    lb.scale_y = static_cast<float>(static_cast<double>(dst_height) / src_height);
    lb.content_width = dst_width;
    lb.content_height = dst_height;
    return lb;
  }
  // Fit the picture as displayed (src_width * sample_aspect wide), then spread the scale
  // back over the stored pixels.
  const double display_width = src_width * sample_aspect;
  const double fit = std::min(dst_width / display_width, static_cast<double>(dst_height) / src_height);
  lb.scale_x = static_cast<float>(fit * sample_aspect);
  lb.scale_y = static_cast<float>(fit);
  lb.content_width = std::clamp(static_cast<int>(std::lround(display_width * fit)), 1, dst_width);
  lb.content_height = std::clamp(static_cast<int>(std::lround(src_height * fit)), 1, dst_height);
  if (align == LetterboxAlign::centre) {
    lb.pad_x = (dst_width - lb.content_width) / 2;
    lb.pad_y = (dst_height - lb.content_height) / 2;
  }
  return lb;
}

}  // namespace vidpipe
