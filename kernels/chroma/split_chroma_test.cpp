// The CPU twin of split_chroma against NV12 frames worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "chroma/split_chroma_ref.hpp"
#include "frame_pixels.hpp"
#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {

using test::luma;

std::uint8_t sample(const std::vector<std::uint8_t>& frame, const YuvLayout& l, int plane, int x, int y) {
  return frame[l.offset[plane] + static_cast<std::size_t>(y) * l.pitch[plane] + x];
}

TEST(ReferenceSplitChroma, UGoesToTheSecondPlaneAndVToTheThird) {
  // 4x2 luma at a pitch of 6 (NVDEC's rows are wider than the picture), one chroma row of
  // two U/V pairs at a pitch of 8.
  const std::vector<std::uint8_t> y_plane = {1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 0, 0};
  const std::vector<std::uint8_t> uv_plane = {10, 20, 30, 40, 99, 99, 99, 99};
  const YuvLayout to = make_yuv_layout(4, 2, 4, 2, false);
  std::vector<std::uint8_t> frame(to.frame_bytes, 0);
  reference::split_chroma(y_plane.data(), 6, uv_plane.data(), 8, frame.data(), to);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_EQ(luma(frame, to, x, y), 1 + x + 4 * y) << x << "," << y;
  EXPECT_EQ(sample(frame, to, 1, 0, 0), 10);
  EXPECT_EQ(sample(frame, to, 1, 1, 0), 30);
  EXPECT_EQ(sample(frame, to, 2, 0, 0), 20);
  EXPECT_EQ(sample(frame, to, 2, 1, 0), 40);
}

TEST(ReferenceSplitChroma, OddSizesKeepTheirLastColumnAndRow) {
  // 5x3: chroma 3x2, its last column and row under half a luma block.
  const int width = 5, height = 3, luma_pitch = 8, chroma_pitch = 8;
  std::vector<std::uint8_t> y_plane(luma_pitch * height), uv_plane(chroma_pitch * 2);
  for (std::size_t i = 0; i < y_plane.size(); ++i) y_plane[i] = static_cast<std::uint8_t>(i);
  for (std::size_t i = 0; i < uv_plane.size(); ++i) uv_plane[i] = static_cast<std::uint8_t>(100 + i);
  const YuvLayout to = make_yuv_layout(width, height, width, height, false);
  std::vector<std::uint8_t> frame(to.frame_bytes, 0);
  reference::split_chroma(y_plane.data(), luma_pitch, uv_plane.data(), chroma_pitch, frame.data(), to);
  EXPECT_EQ(luma(frame, to, 4, 2), y_plane[2 * luma_pitch + 4]);
  EXPECT_EQ(sample(frame, to, 1, 2, 1), uv_plane[chroma_pitch + 4]);
  EXPECT_EQ(sample(frame, to, 2, 2, 1), uv_plane[chroma_pitch + 5]);
}

}  // namespace
}  // namespace vidpipe
