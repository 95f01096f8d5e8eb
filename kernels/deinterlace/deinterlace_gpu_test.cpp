// deinterlace on the GPU against its CPU twin: both fields, both plane kinds, odd heights, batched.
#include <gtest/gtest.h>

#include "deinterlace/deinterlace.cuh"
#include "deinterlace/deinterlace_ref.hpp"
#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

struct DeinterlaceCase {
  int width, height;
  bool nv12, keep_top;
};

class DeinterlaceGpu : public ::testing::TestWithParam<DeinterlaceCase> {};

TEST_P(DeinterlaceGpu, MatchesReference) {
  REQUIRE_GPU();
  const DeinterlaceCase c = GetParam();
  const int batch = 2;
  const YuvLayout l = make_yuv_layout(c.width, c.height, c.width, c.height, c.nv12);
  std::vector<std::uint8_t> frames = random_bytes(l.frame_bytes * batch, 5 + c.height);
  cuda::DeviceBuffer d = upload(frames);
  launch_deinterlace(d.as(), l, l.frame_bytes, batch, c.keep_top, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d, l.frame_bytes * batch);
  for (int b = 0; b < batch; ++b) reference::deinterlace(frames.data() + b * l.frame_bytes, l, c.keep_top);
  EXPECT_TRUE(gpu == frames);
}

INSTANTIATE_TEST_SUITE_P(Fields, DeinterlaceGpu,
                         ::testing::Values(DeinterlaceCase{1920, 1080, true, true}, DeinterlaceCase{720, 576, false, false},
                                           DeinterlaceCase{641, 359, false, true}, DeinterlaceCase{100, 61, true, false}),
                         [](const auto& info) {
                           const DeinterlaceCase& c = info.param;
                           return std::to_string(c.width) + "x" + std::to_string(c.height) + (c.nv12 ? "_nv12" : "_i420") +
                                  (c.keep_top ? "_top" : "_bottom");
                         });

}  // namespace
}  // namespace vidpipe
