// Where the planes of a 4:2:0 frame sit inside one pool buffer. One layout serves a
// whole stream, so every frame is one contiguous copy to the GPU and back.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

// visible_*: the picture; alloc_*: what the decoder may write (its aligned size).
YuvLayout make_yuv_layout(int visible_width, int visible_height, int alloc_width,
                          int alloc_height, bool nv12);

// The layout of a frame turned by `quarter_turns` clockwise: the same for none or a half
// turn, width and height swapped (packed, no decoder padding) for odd turns.
YuvLayout turned_layout(const YuvLayout& layout, int quarter_turns);

// The bytes of one frame's visible picture (what an honest GB/s counts).
std::size_t visible_bytes(const YuvLayout& layout);

}  // namespace vidpipe
