// Where the planes of a frame sit inside one pool buffer. One layout serves a whole
// stream, so every frame is one contiguous copy to the GPU and back.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

// How a decoder writes its samples: what a layout needs beyond the frame's size.
struct PixelLayout {
  bool interleaved_chroma = false;  // NV12, P010: Y + one UV plane
  int chroma_shift_x = 1, chroma_shift_y = 1;
  int sample_bytes = 1, sample_bits = 8, sample_lsb = 0;
  static PixelLayout yuv420(bool nv12) { return {nv12}; }
};

// Whether frames of `a` and `b` sit the same way in their buffers (size, planes, samples).
bool same_layout(const YuvLayout& a, const YuvLayout& b);

// visible_*: the picture; alloc_*: what the decoder may write (its aligned size).
YuvLayout make_yuv_layout(int visible_width, int visible_height, int alloc_width, int alloc_height,
                          const PixelLayout& pixels);
// 8-bit 4:2:0, three planes or NV12.
YuvLayout make_yuv_layout(int visible_width, int visible_height, int alloc_width, int alloc_height, bool nv12);

// The 8-bit 4:2:0 frame the GPU stage narrows a wider one into (narrow_yuv): the layout
// itself where it is narrow already, else three packed planes of its size.
YuvLayout narrowed_layout(const YuvLayout& layout);

// The layout of a (narrow) frame turned by `quarter_turns` clockwise: the same for none or a
// half turn, width and height swapped (packed, no decoder padding) for odd turns.
YuvLayout turned_layout(const YuvLayout& layout, int quarter_turns);

// The bytes of one frame's visible picture (what an honest GB/s counts).
std::size_t visible_bytes(const YuvLayout& layout);

}  // namespace vidpipe
