// split_chroma on the GPU against its CPU twin: NVDEC-like pitches, odd sizes, 4K.
#include <gtest/gtest.h>

#include "chroma/split_chroma.cuh"
#include "chroma/split_chroma_ref.hpp"
#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_layout.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

struct SplitCase {
  int width, height;
};

class SplitChromaGpu : public ::testing::TestWithParam<SplitCase> {};

TEST_P(SplitChromaGpu, MatchesReference) {
  REQUIRE_GPU();
  const SplitCase c = GetParam();
  // NVDEC's pitch: the width rounded up to 512 bytes, one pitch for both planes.
  const int pitch = (c.width + 511) / 512 * 512;
  const int chroma_rows = (c.height + 1) / 2;
  const auto luma_plane = random_bytes(static_cast<std::size_t>(pitch) * c.height, 7);
  const auto chroma_plane = random_bytes(static_cast<std::size_t>(pitch) * chroma_rows, 8);
  const YuvLayout to = make_yuv_layout(c.width, c.height, c.width + 32, c.height + 16, false);
  cuda::DeviceBuffer d_luma = upload(luma_plane), d_chroma = upload(chroma_plane);
  cuda::DeviceBuffer d_frame = poisoned(to.frame_bytes);
  launch_split_chroma(d_luma.as(), pitch, d_chroma.as(), pitch, d_frame.as(), to, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_frame, to.frame_bytes);
  std::vector<std::uint8_t> ref(to.frame_bytes, 0xAB);  // padding poisoned as on the device
  reference::split_chroma(luma_plane.data(), pitch, chroma_plane.data(), pitch, ref.data(), to);
  EXPECT_TRUE(std::equal(ref.begin(), ref.end(), gpu.begin()));
}

INSTANTIATE_TEST_SUITE_P(Sizes, SplitChromaGpu,
                         ::testing::Values(SplitCase{3840, 2160}, SplitCase{1920, 1080}, SplitCase{641, 359},
                                           SplitCase{100, 61}),
                         [](const auto& info) {
                           return std::to_string(info.param.width) + "x" + std::to_string(info.param.height);
                         });

}  // namespace
}  // namespace vidpipe
