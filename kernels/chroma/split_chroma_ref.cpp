#include "chroma/split_chroma_ref.hpp"

#include <cstring>

namespace vidpipe::reference {

void split_chroma(const std::uint8_t* luma, int luma_pitch, const std::uint8_t* chroma, int chroma_pitch,
                  std::uint8_t* frame, const YuvLayout& to) {
  for (int y = 0; y < to.height; ++y)
    std::memcpy(frame + to.offset[0] + static_cast<std::size_t>(y) * to.pitch[0],
                luma + static_cast<std::size_t>(y) * luma_pitch, static_cast<std::size_t>(to.width));
  for (int y = 0; y < to.chroma_height(); ++y) {
    const std::uint8_t* uv = chroma + static_cast<std::size_t>(y) * chroma_pitch;
    std::uint8_t* u = frame + to.offset[1] + static_cast<std::size_t>(y) * to.pitch[1];
    std::uint8_t* v = frame + to.offset[2] + static_cast<std::size_t>(y) * to.pitch[2];
    for (int x = 0; x < to.chroma_width(); ++x) {
      u[x] = uv[2 * x];
      v[x] = uv[2 * x + 1];
    }
  }
}

}  // namespace vidpipe::reference
