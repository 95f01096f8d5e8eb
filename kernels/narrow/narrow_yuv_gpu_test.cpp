// narrow_yuv on the GPU against its CPU twin: every wide layout vidpipe uploads, odd sizes,
// batched; the padding left untouched.
#include <gtest/gtest.h>

#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_layout.hpp"
#include "narrow/narrow_yuv.cuh"
#include "narrow/narrow_yuv_ref.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

struct NarrowCase {
  const char* name;
  int width, height;
  PixelLayout pixels;
};

class NarrowYuvGpu : public ::testing::TestWithParam<NarrowCase> {};

TEST_P(NarrowYuvGpu, MatchesReference) {
  REQUIRE_GPU();
  const NarrowCase c = GetParam();
  const int batch = 2;
  const YuvLayout from = make_yuv_layout(c.width, c.height, c.width, c.height, c.pixels);
  const YuvLayout to = narrowed_layout(from);
  const auto src = random_bytes(from.frame_bytes * batch, 47 + c.width);
  cuda::DeviceBuffer d_src = upload(src);
  cuda::DeviceBuffer d_dst = poisoned(to.frame_bytes * batch);
  launch_narrow_yuv(d_src.as(), from, from.frame_bytes, batch, d_dst.as(), to, to.frame_bytes, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_dst, to.frame_bytes * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<std::uint8_t> ref(to.frame_bytes, 0xAB);  // padding poisoned as on the device
    reference::narrow_yuv(src.data() + b * from.frame_bytes, from, ref.data(), to);
    EXPECT_TRUE(std::equal(ref.begin(), ref.end(), gpu.begin() + b * to.frame_bytes)) << "frame " << b;
  }
}

// Random words hold bits above a 10-bit sample too: the kernel must clamp as the twin does.
INSTANTIATE_TEST_SUITE_P(Layouts, NarrowYuvGpu,
                         ::testing::Values(NarrowCase{"p010_4k", 3840, 2160, {true, 1, 1, 2, 10, 6}},
                                           NarrowCase{"yuv420p10_odd", 641, 359, {false, 1, 1, 2, 10, 0}},
                                           NarrowCase{"yuv422p_1080", 1920, 1080, {false, 1, 0, 1, 8, 0}},
                                           NarrowCase{"yuv444p_odd", 4095, 2161, {false, 0, 0, 1, 8, 0}},
                                           NarrowCase{"yuv444p12", 99, 61, {false, 0, 0, 2, 12, 0}}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace vidpipe
