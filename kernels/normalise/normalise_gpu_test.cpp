// normalise on the GPU against its CPU twin on random inputs, batched.
#include <gtest/gtest.h>

#include <tuple>

#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "normalise/normalise.cuh"
#include "normalise/normalise_ref.hpp"
#include "tiny_face/tiny_face_net.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

class NormaliseGpu : public ::testing::TestWithParam<std::pair<bool, bool>> {};

TEST_P(NormaliseGpu, MatchesReference) {
  REQUIRE_GPU();
  const int w = 417, h = 133, batch = 4;
  const std::size_t pixels = static_cast<std::size_t>(w) * h;
  const auto src = random_bytes(pixels * 3 * batch, 7);
  Normalisation n = tiny_face_normalisation();
  std::tie(n.bgr, n.nhwc) = GetParam();
  cuda::DeviceBuffer d_src = upload(src);
  cuda::DeviceBuffer d_dst = poisoned(pixels * 3 * batch * sizeof(float));
  launch_normalise(d_src.as(), w, h, batch, n, d_dst.as<float>(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<float>(d_dst, pixels * 3 * batch);
  double err = 0, norm = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<float> ref(pixels * 3);
    reference::normalise(src.data() + b * pixels * 3, w, h, n, ref.data());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const double d = double(gpu[b * pixels * 3 + i]) - ref[i];
      ASSERT_FALSE(std::isnan(gpu[b * pixels * 3 + i]));
      err += d * d;
      norm += double(ref[i]) * ref[i];
    }
  }
  EXPECT_LT(std::sqrt(err / norm), 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Orders, NormaliseGpu,
                         ::testing::Values(std::pair{false, false}, std::pair{true, false}, std::pair{false, true},
                                           std::pair{true, true}),
                         [](const auto& info) {
                           return std::string(info.param.first ? "Bgr" : "Rgb") + (info.param.second ? "Nhwc" : "Nchw");
                         });

}  // namespace
}  // namespace vidpipe
