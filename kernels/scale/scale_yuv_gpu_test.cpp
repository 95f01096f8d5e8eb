// scale_yuv on the GPU against its CPU twin on random frames, batched, both plane kinds.
#include <gtest/gtest.h>

#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_layout.hpp"
#include "scale/scale_yuv.cuh"
#include "scale/scale_yuv_ref.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

struct ScaleCase {
  int src_w, src_h, dst_w, dst_h;
  bool nv12;
};

class ScaleYuvGpu : public ::testing::TestWithParam<ScaleCase> {};

// Every visible sample of every plane; padding is not compared.
int worst_difference(const std::uint8_t* a, const std::uint8_t* b, const YuvLayout& l) {
  int worst = 0;
  auto plane = [&](std::size_t offset, int width_bytes, int rows, int pitch) {
    for (int y = 0; y < rows; ++y)
      for (int x = 0; x < width_bytes; ++x) {
        const std::size_t i = offset + static_cast<std::size_t>(y) * pitch + x;
        worst = std::max(worst, std::abs(int(a[i]) - int(b[i])));
      }
  };
  plane(l.offset[0], l.width, l.height, l.pitch[0]);
  plane(l.offset[1], l.chroma_width() * (l.nv12 ? 2 : 1), l.chroma_height(), l.pitch[1]);
  if (!l.nv12) plane(l.offset[2], l.chroma_width(), l.chroma_height(), l.pitch[2]);
  return worst;
}

TEST_P(ScaleYuvGpu, MatchesReference) {
  REQUIRE_GPU();
  const ScaleCase c = GetParam();
  const int batch = 2;
  const YuvLayout from = make_yuv_layout(c.src_w, c.src_h, c.src_w, c.src_h, c.nv12);
  const YuvLayout to = make_yuv_layout(c.dst_w, c.dst_h, c.dst_w, c.dst_h, c.nv12);
  const auto src = random_bytes(from.frame_bytes * batch, 7 + c.dst_w);
  cuda::DeviceBuffer d_src = upload(src);
  cuda::DeviceBuffer d_dst = poisoned(to.frame_bytes * batch);
  launch_scale_yuv(d_src.as(), from, from.frame_bytes, batch, d_dst.as(), to, to.frame_bytes, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_dst, to.frame_bytes * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<std::uint8_t> ref(to.frame_bytes);
    reference::scale_yuv(src.data() + b * from.frame_bytes, from, ref.data(), to);
    EXPECT_LE(worst_difference(gpu.data() + b * to.frame_bytes, ref.data(), to), 1) << "frame " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, ScaleYuvGpu,
                         ::testing::Values(ScaleCase{3840, 2160, 1920, 1080, true},
                                           ScaleCase{3840, 2160, 1280, 720, false},
                                           ScaleCase{641, 479, 320, 240, false},
                                           ScaleCase{100, 60, 258, 146, true}),
                         [](const auto& info) {
                           const ScaleCase& c = info.param;
                           return std::to_string(c.src_w) + "x" + std::to_string(c.src_h) + "_to_" +
                                  std::to_string(c.dst_w) + "x" + std::to_string(c.dst_h) + (c.nv12 ? "_nv12" : "_i420");
                         });

}  // namespace
}  // namespace vidpipe
