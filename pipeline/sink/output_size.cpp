#include "sink/output_size.hpp"

#include <algorithm>
#include <cmath>

#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {
int even(double v) { return std::max(2, static_cast<int>(v) / 2 * 2); }
}  // namespace

YuvLayout output_layout_for(const YuvLayout& decoded, const SinkConfig& sink) {
  if (sink.width == 0 && sink.height == 0) return decoded;
  const double aspect = double(decoded.width) / decoded.height;
  const int width = even(sink.width > 0 ? sink.width : std::lround(sink.height * aspect));
  const int height = even(sink.height > 0 ? sink.height : std::lround(sink.width / aspect));
  if (width == decoded.width && height == decoded.height) return decoded;
  return make_yuv_layout(width, height, width, height, decoded.nv12);
}

}  // namespace vidpipe
