// resize_letterbox on the GPU against its CPU twin on random inputs, batched.
#include <gtest/gtest.h>

#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "letterbox/letterbox.hpp"
#include "letterbox/resize_letterbox.cuh"
#include "letterbox/resize_letterbox_ref.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

struct ResizeCase {
  int src_w, src_h, dst_w, dst_h;
  LetterboxAlign align;
};

class ResizeGpu : public ::testing::TestWithParam<ResizeCase> {};

TEST_P(ResizeGpu, MatchesReference) {
  REQUIRE_GPU();
  const ResizeCase c = GetParam();
  const int batch = 2;
  const std::size_t src_bytes = static_cast<std::size_t>(c.src_w) * c.src_h * 3;
  const std::size_t dst_bytes = static_cast<std::size_t>(c.dst_w) * c.dst_h * 3;
  const auto src = random_bytes(src_bytes * batch, 99 + c.src_w);
  const Letterbox lb = make_letterbox(c.src_w, c.src_h, c.dst_w, c.dst_h, c.align);
  cuda::DeviceBuffer d_src = upload(src);
  cuda::DeviceBuffer d_dst = poisoned(dst_bytes * batch);
  launch_resize_letterbox(d_src.as(), c.src_w, c.src_h, src_bytes, batch, lb, d_dst.as(), dst_bytes, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_dst, dst_bytes * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<std::uint8_t> ref(dst_bytes);
    reference::resize_letterbox(src.data() + b * src_bytes, c.src_w, c.src_h, lb, ref.data());
    int worst = 0;
    for (std::size_t i = 0; i < dst_bytes; ++i) worst = std::max(worst, std::abs(int(gpu[b * dst_bytes + i]) - ref[i]));
    EXPECT_LE(worst, 1) << "frame " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, ResizeGpu,
                         ::testing::Values(ResizeCase{3840, 2160, 416, 416, LetterboxAlign::top_left},
                                           ResizeCase{641, 479, 320, 320, LetterboxAlign::centre},
                                           ResizeCase{100, 300, 128, 96, LetterboxAlign::centre},
                                           ResizeCase{50, 40, 200, 160, LetterboxAlign::top_left}),
                         [](const auto& info) {
                           const ResizeCase& c = info.param;
                           return std::to_string(c.src_w) + "x" + std::to_string(c.src_h) + "_to_" +
                                  std::to_string(c.dst_w) + "x" + std::to_string(c.dst_h);
                         });

}  // namespace
}  // namespace vidpipe
