#include "deinterlace/deinterlace_ref.hpp"

namespace vidpipe::reference {
namespace {

// Each row of the dropped field becomes the mean of the kept rows next to it (the one kept
// row where it is at the top or bottom edge). Chroma rows of 4:2:0 carry the same parity.
void deinterlace_plane(std::uint8_t* plane, int width_bytes, int height, int pitch, bool keep_top) {
  const int kept_parity = keep_top ? 0 : 1;
  for (int y = 0; y < height; ++y) {
    if (y % 2 == kept_parity) continue;
    const int above = y - 1 >= 0 ? y - 1 : y + 1;
    const int below = y + 1 < height ? y + 1 : y - 1;
    if (above < 0 || above >= height) continue;  // a one-row plane has nothing to rebuild from
    for (int x = 0; x < width_bytes; ++x)
      plane[static_cast<std::size_t>(y) * pitch + x] = static_cast<std::uint8_t>(
          (plane[static_cast<std::size_t>(above) * pitch + x] + plane[static_cast<std::size_t>(below) * pitch + x] + 1) / 2);
  }
}

}  // namespace

void deinterlace(std::uint8_t* frame, const YuvLayout& l, bool keep_top) {
  deinterlace_plane(frame + l.offset[0], l.width, l.height, l.pitch[0], keep_top);
  const int chroma_bytes = l.chroma_width() * (l.nv12 ? 2 : 1);
  deinterlace_plane(frame + l.offset[1], chroma_bytes, l.chroma_height(), l.pitch[1], keep_top);
  if (!l.nv12) deinterlace_plane(frame + l.offset[2], chroma_bytes, l.chroma_height(), l.pitch[2], keep_top);
}

}  // namespace vidpipe::reference
