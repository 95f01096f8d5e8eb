#include "memory/frame_layout.hpp"

#include <tuple>

namespace vidpipe {

namespace {
constexpr std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
// FFmpeg's SIMD code reads up to 64 bytes past a plane (AV_INPUT_BUFFER_PADDING_SIZE).
constexpr std::size_t plane_padding = 64;
}  // namespace

YuvLayout make_yuv_layout(int visible_width, int visible_height, int alloc_width, int alloc_height,
                          const PixelLayout& px) {
  YuvLayout l;
  l.width = visible_width;
  l.height = visible_height;
  l.nv12 = px.interleaved_chroma;
  l.chroma_shift_x = static_cast<std::uint8_t>(px.chroma_shift_x);
  l.chroma_shift_y = static_cast<std::uint8_t>(px.chroma_shift_y);
  l.sample_bytes = static_cast<std::uint8_t>(px.sample_bytes);
  l.sample_bits = static_cast<std::uint8_t>(px.sample_bits);
  l.sample_lsb = static_cast<std::uint8_t>(px.sample_lsb);
  // Pitches 64-byte aligned for SIMD; for planar the luma pitch is the chroma pitch times
  // the horizontal subsampling, which some FFmpeg code assumes (hence 128 for 4:2:x).
  const std::size_t row_bytes = static_cast<std::size_t>(alloc_width) * px.sample_bytes;
  const std::size_t luma_pitch = align_up(row_bytes, px.interleaved_chroma ? 64 : 64u << px.chroma_shift_x);
  const std::size_t chroma_pitch =
      px.interleaved_chroma ? (2 * luma_pitch) >> px.chroma_shift_x : luma_pitch >> px.chroma_shift_x;
  const std::size_t chroma_rows =
      (static_cast<std::size_t>(alloc_height) + (1u << px.chroma_shift_y) - 1) >> px.chroma_shift_y;
  l.pitch[0] = static_cast<int>(luma_pitch);
  l.pitch[1] = static_cast<int>(chroma_pitch);
  l.pitch[2] = l.nv12 ? 0 : static_cast<int>(chroma_pitch);
  l.offset[0] = 0;
  l.offset[1] = align_up(luma_pitch * alloc_height + plane_padding, 64);
  const std::size_t plane1_end = l.offset[1] + chroma_pitch * chroma_rows;
  if (l.nv12) {
    l.offset[2] = 0;
    l.frame_bytes = align_up(plane1_end + plane_padding, 64);
  } else {
    l.offset[2] = align_up(plane1_end + plane_padding, 64);
    l.frame_bytes = align_up(l.offset[2] + chroma_pitch * chroma_rows + plane_padding, 64);
  }
  return l;
}

YuvLayout make_yuv_layout(int visible_width, int visible_height, int alloc_width, int alloc_height, bool nv12) {
  return make_yuv_layout(visible_width, visible_height, alloc_width, alloc_height, PixelLayout::yuv420(nv12));
}

YuvLayout narrowed_layout(const YuvLayout& l) {
  return l.narrow() ? l : make_yuv_layout(l.width, l.height, l.width, l.height, false);
}

YuvLayout turned_layout(const YuvLayout& l, int quarter_turns) {
  if (quarter_turns % 2 == 0) return l;
  return make_yuv_layout(l.height, l.width, l.height, l.width, l.nv12);
}

std::size_t visible_bytes(const YuvLayout& l) {
  const std::size_t luma = static_cast<std::size_t>(l.width) * l.height;
  return (luma + 2 * static_cast<std::size_t>(l.chroma_width()) * l.chroma_height()) * l.sample_bytes;
}

bool same_layout(const YuvLayout& a, const YuvLayout& b) {
  const auto fields = [](const YuvLayout& l) {
    return std::tuple(l.width, l.height, l.nv12, l.offset[0], l.offset[1], l.offset[2], l.pitch[0], l.pitch[1],
                      l.pitch[2], l.frame_bytes, l.chroma_shift_x, l.chroma_shift_y, l.sample_bytes, l.sample_bits,
                      l.sample_lsb);
  };
  return fields(a) == fields(b);
}

}  // namespace vidpipe
