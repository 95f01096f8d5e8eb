#include "memory/frame_layout.hpp"

namespace vidpipe {

namespace {
constexpr std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
// FFmpeg's SIMD code reads up to 64 bytes past a plane (AV_INPUT_BUFFER_PADDING_SIZE).
constexpr std::size_t plane_padding = 64;
}  // namespace

YuvLayout make_yuv_layout(int visible_width, int visible_height, int alloc_width,
                          int alloc_height, bool nv12) {
  YuvLayout l;
  l.width = visible_width;
  l.height = visible_height;
  l.nv12 = nv12;
  // Pitches 64-byte aligned for SIMD; for planar the luma pitch is twice the chroma
  // pitch, which some FFmpeg code assumes of 4:2:0 frames.
  const std::size_t luma_pitch = align_up(static_cast<std::size_t>(alloc_width), nv12 ? 64 : 128);
  const std::size_t chroma_pitch = nv12 ? luma_pitch : luma_pitch / 2;
  const std::size_t chroma_rows = (static_cast<std::size_t>(alloc_height) + 1) / 2;
  l.pitch[0] = static_cast<int>(luma_pitch);
  l.pitch[1] = static_cast<int>(chroma_pitch);
  l.pitch[2] = nv12 ? 0 : static_cast<int>(chroma_pitch);
  l.offset[0] = 0;
  l.offset[1] = align_up(luma_pitch * alloc_height + plane_padding, 64);
  const std::size_t plane1_end = l.offset[1] + chroma_pitch * chroma_rows;
  if (nv12) {
    l.offset[2] = 0;
    l.frame_bytes = align_up(plane1_end + plane_padding, 64);
  } else {
    l.offset[2] = align_up(plane1_end + plane_padding, 64);
    l.frame_bytes = align_up(l.offset[2] + chroma_pitch * chroma_rows + plane_padding, 64);
  }
  return l;
}

YuvLayout turned_layout(const YuvLayout& l, int quarter_turns) {
  if (quarter_turns % 2 == 0) return l;
  return make_yuv_layout(l.height, l.width, l.height, l.width, l.nv12);
}

std::size_t visible_bytes(const YuvLayout& l) {
  const std::size_t luma = static_cast<std::size_t>(l.width) * l.height;
  return luma + 2 * static_cast<std::size_t>(l.chroma_width()) * l.chroma_height();
}

}  // namespace vidpipe
