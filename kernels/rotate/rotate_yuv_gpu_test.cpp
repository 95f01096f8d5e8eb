// rotate_yuv on the GPU against its CPU twin: every turn, both plane kinds, odd sizes, batched.
#include <gtest/gtest.h>

#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_layout.hpp"
#include "rotate/rotate_yuv.cuh"
#include "rotate/rotate_yuv_ref.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

struct RotateCase {
  int width, height, turns;
  bool nv12;
};

class RotateYuvGpu : public ::testing::TestWithParam<RotateCase> {};

TEST_P(RotateYuvGpu, MatchesReference) {
  REQUIRE_GPU();
  const RotateCase c = GetParam();
  const int batch = 2;
  const bool swap = c.turns % 2 == 1;
  const YuvLayout from = make_yuv_layout(c.width, c.height, c.width, c.height, c.nv12);
  const YuvLayout to = swap ? make_yuv_layout(c.height, c.width, c.height, c.width, c.nv12) : from;
  const auto src = random_bytes(from.frame_bytes * batch, 31 + c.turns);
  cuda::DeviceBuffer d_src = upload(src);
  cuda::DeviceBuffer d_dst = poisoned(to.frame_bytes * batch);
  launch_rotate_yuv(d_src.as(), from, from.frame_bytes, batch, c.turns, d_dst.as(), to, to.frame_bytes, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_dst, to.frame_bytes * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<std::uint8_t> ref(to.frame_bytes, 0xAB);  // padding poisoned as on the device
    reference::rotate_yuv(src.data() + b * from.frame_bytes, from, c.turns, ref.data(), to);
    EXPECT_TRUE(std::equal(ref.begin(), ref.end(), gpu.begin() + b * to.frame_bytes)) << "frame " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Turns, RotateYuvGpu,
                         ::testing::Values(RotateCase{3840, 2160, 1, true}, RotateCase{1920, 1080, 3, false},
                                           RotateCase{641, 359, 2, false}, RotateCase{641, 359, 1, true},
                                           RotateCase{100, 61, 3, true}),
                         [](const auto& info) {
                           const RotateCase& c = info.param;
                           return std::to_string(c.width) + "x" + std::to_string(c.height) + "_turns" +
                                  std::to_string(c.turns) + (c.nv12 ? "_nv12" : "_i420");
                         });

}  // namespace
}  // namespace vidpipe
