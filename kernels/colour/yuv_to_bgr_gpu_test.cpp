// yuv_to_bgr on the GPU (coefficients from colour_matrix.cpp) against its CPU twin (from the
// standards' equations) on fresh random inputs, batched, at sizes
// that leave partial blocks (odd widths) so edge handling is exercised too.
#include <gtest/gtest.h>

#include "colour/colour_matrix.hpp"
#include "colour/yuv_to_bgr.cuh"
#include "colour/yuv_to_bgr_ref.hpp"
#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_layout.hpp"
#include "source/frame_colour.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

struct YuvCase {
  int width, height;
  bool nv12;
  ColourStandard standard;
  ColourRange range;
};

class YuvToBgrGpu : public ::testing::TestWithParam<YuvCase> {};

TEST_P(YuvToBgrGpu, MatchesReference) {
  REQUIRE_GPU();
  const YuvCase c = GetParam();
  const int batch = 3;
  const YuvLayout l = make_yuv_layout(c.width, c.height, c.width, c.height + 16, c.nv12);
  const auto frames = random_bytes(l.frame_bytes * batch, 1234 + c.width);
  const ColourMatrix m = make_colour_matrix(c.standard, c.range);
  const std::size_t out_bytes = static_cast<std::size_t>(c.width) * c.height * 3;
  cuda::DeviceBuffer d_in = upload(frames);
  cuda::DeviceBuffer d_out = poisoned(out_bytes * batch);
  launch_yuv_to_bgr(d_in.as(), l, batch, m, d_out.as(), out_bytes, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_out, out_bytes * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<std::uint8_t> ref(out_bytes);
    reference::yuv_to_bgr(frames.data() + b * l.frame_bytes, l, c.standard, c.range, ref.data());
    int worst = 0;
    for (std::size_t i = 0; i < out_bytes; ++i) worst = std::max(worst, std::abs(int(gpu[b * out_bytes + i]) - ref[i]));
    EXPECT_LE(worst, 1) << "frame " << b << ": float vs double rounding may differ by one code, no more";
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, YuvToBgrGpu,
                         ::testing::Values(YuvCase{640, 360, false, ColourStandard::bt709, ColourRange::limited},
                                           YuvCase{333, 97, false, ColourStandard::bt601, ColourRange::full},
                                           YuvCase{320, 240, true, ColourStandard::bt601, ColourRange::limited},
                                           YuvCase{129, 65, true, ColourStandard::bt709, ColourRange::full},
                                           YuvCase{258, 130, false, ColourStandard::bt2020, ColourRange::limited},
                                           YuvCase{131, 67, true, ColourStandard::bt2020, ColourRange::full}),
                         [](const auto& info) {
                           const YuvCase& c = info.param;
                           return std::to_string(c.width) + "x" + std::to_string(c.height) + (c.nv12 ? "_nv12" : "_i420") +
                                  "_" + to_string(c.standard) + "_" + to_string(c.range);
                         });

}  // namespace
}  // namespace vidpipe
