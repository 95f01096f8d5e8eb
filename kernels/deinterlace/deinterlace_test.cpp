// The CPU twin of deinterlace against rows worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "deinterlace/deinterlace_ref.hpp"
#include "frame_pixels.hpp"
#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {

using test::luma;

// Rows alternate between the two fields: even rows 10*y, odd rows 200 (a comb).
std::vector<std::uint8_t> combed(const YuvLayout& l) {
  std::vector<std::uint8_t> f(l.frame_bytes);
  for (int y = 0; y < l.height; ++y)
    for (int x = 0; x < l.width; ++x) luma(f, l, x, y) = static_cast<std::uint8_t>(y % 2 ? 200 : 10 * y);
  return f;
}

TEST(ReferenceDeinterlace, KeepingTheTopFieldRebuildsOddRowsFromTheirNeighbours) {
  const YuvLayout l = make_yuv_layout(4, 6, 4, 6, false);
  std::vector<std::uint8_t> f = combed(l);
  reference::deinterlace(f.data(), l, true);
  // Rows 0, 2, 4 kept (0, 20, 40); 1 and 3 the means of their neighbours; 5 has only row 4.
  const int expected[6] = {0, 10, 20, 30, 40, 40};
  for (int y = 0; y < 6; ++y) EXPECT_EQ(luma(f, l, 2, y), expected[y]) << "row " << y;
}

TEST(ReferenceDeinterlace, KeepingTheBottomFieldRebuildsEvenRows) {
  const YuvLayout l = make_yuv_layout(4, 5, 4, 5, true);
  std::vector<std::uint8_t> f = combed(l);
  reference::deinterlace(f.data(), l, false);
  for (int y = 0; y < 5; ++y) EXPECT_EQ(luma(f, l, 1, y), 200) << "row " << y << ": the bottom field is flat";
}

TEST(ReferenceDeinterlace, ChromaRowsAreRebuiltToo) {
  const YuvLayout l = make_yuv_layout(8, 8, 8, 8, false);
  std::vector<std::uint8_t> f(l.frame_bytes);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) f[l.offset[2] + y * l.pitch[2] + x] = static_cast<std::uint8_t>(y % 2 ? 250 : 50);
  reference::deinterlace(f.data(), l, true);
  for (int y = 0; y < 4; ++y) EXPECT_EQ(f[l.offset[2] + y * l.pitch[2]], 50) << "V row " << y;
}

}  // namespace
}  // namespace vidpipe
