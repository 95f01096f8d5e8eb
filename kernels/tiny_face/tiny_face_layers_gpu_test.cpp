// TinyFaceDetector's layer kernels and box decoding on the GPU against their CPU twins,
// on random inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "detections.hpp"
#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "letterbox/letterbox.hpp"
#include "memory/cuda_raii.hpp"
#include "tiny_face/tiny_face_layers.cuh"
#include "tiny_face/tiny_face_layers_ref.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

constexpr int batch = 3;

TEST(FaceLayersGpu, Conv3x3MatchesReference) {
  REQUIRE_GPU();
  for (int pad : {0, 1}) {
    const int C = 3, H = 37, W = 51, K = 16, Ho = H + 2 * pad - 2, Wo = W + 2 * pad - 2;
    const auto in = random_floats(std::size_t(batch) * C * H * W, 1 + pad), w = random_floats(K * C * 9, 2),
               b = random_floats(K, 3);
    auto d_in = to_device(in), d_w = to_device(w), d_b = to_device(b);
    auto d_out = poisoned_floats(std::size_t(batch) * K * Ho * Wo);
    launch_conv3x3(d_in.as<float>(), batch, C, H, W, d_w.as<float>(), d_b.as<float>(), K, pad, true,
                   d_out.as<float>(), nullptr);
    const auto got = to_host(d_out, std::size_t(batch) * K * Ho * Wo);
    std::vector<float> want(got.size());
    for (int i = 0; i < batch; ++i)
      reference::conv3x3(in.data() + std::size_t(i) * C * H * W, C, H, W, w.data(), b.data(), K, pad, true,
                         want.data() + std::size_t(i) * K * Ho * Wo);
    EXPECT_LT(relative_error(got, want), 1e-3) << "pad " << pad;
  }
}

TEST(FaceLayersGpu, DepthwiseMatchesReference) {
  REQUIRE_GPU();
  const int C = 32, H = 27, W = 19;
  const auto in = random_floats(std::size_t(batch) * C * H * W, 4), w = random_floats(C * 9, 5);
  auto d_in = to_device(in), d_w = to_device(w);
  auto d_out = poisoned_floats(in.size());
  launch_depthwise3x3(d_in.as<float>(), batch, C, H, W, d_w.as<float>(), d_out.as<float>(), nullptr);
  const auto got = to_host(d_out, in.size());
  std::vector<float> want(in.size());
  for (int i = 0; i < batch; ++i)
    reference::depthwise3x3(in.data() + std::size_t(i) * C * H * W, C, H, W, w.data(), want.data() + std::size_t(i) * C * H * W);
  EXPECT_LT(relative_error(got, want), 1e-3);
}

TEST(FaceLayersGpu, PointwiseMatchesReference) {
  REQUIRE_GPU();
  for (bool leaky : {true, false}) {
    const int C = 256, P = 169, K = 512;
    const auto in = random_floats(std::size_t(batch) * C * P, 6), w = random_floats(K * C, 7), b = random_floats(K, 8);
    auto d_in = to_device(in), d_w = to_device(w), d_b = to_device(b);
    auto d_out = poisoned_floats(std::size_t(batch) * K * P);
    launch_pointwise(d_in.as<float>(), batch, C, P, d_w.as<float>(), d_b.as<float>(), K, leaky, d_out.as<float>(), nullptr);
    const auto got = to_host(d_out, std::size_t(batch) * K * P);
    std::vector<float> want(got.size());
    for (int i = 0; i < batch; ++i)
      reference::pointwise(in.data() + std::size_t(i) * C * P, C, P, w.data(), b.data(), K, leaky,
                           want.data() + std::size_t(i) * K * P);
    EXPECT_LT(relative_error(got, want), 1e-3) << "leaky " << leaky;
  }
}

TEST(FaceLayersGpu, MaxPoolMatchesReference) {
  REQUIRE_GPU();
  for (int stride : {1, 2}) {
    const int C = 8, H = 13, W = 207;
    const int Ho = tf_same_out(H, stride), Wo = tf_same_out(W, stride);
    const auto in = random_floats(std::size_t(batch) * C * H * W, 9);
    auto d_in = to_device(in);
    auto d_out = poisoned_floats(std::size_t(batch) * C * Ho * Wo);
    launch_maxpool2x2(d_in.as<float>(), batch, C, H, W, stride, d_out.as<float>(), nullptr);
    const auto got = to_host(d_out, std::size_t(batch) * C * Ho * Wo);
    std::vector<float> want(got.size());
    for (int i = 0; i < batch; ++i)
      reference::maxpool2x2(in.data() + std::size_t(i) * C * H * W, C, H, W, stride, want.data() + std::size_t(i) * C * Ho * Wo);
    EXPECT_EQ(got, want) << "stride " << stride;  // a max is exact
  }
}


TEST(FaceLayersGpu, DecodeMatchesReference) {
  REQUIRE_GPU();
  for (int cells : {13, 19}) {  // 416 and 608 inputs (1805 candidates: more than one pass per thread)
    const std::size_t per = std::size_t(25) * cells * cells;
    // Logits around 0 so that some scores pass 0.6 and NMS has overlaps to remove.
    const auto out = random_floats(per * batch, 10 + cells, -3.f, 1.5f);
    const Letterbox lb = make_letterbox(1920, 1080, cells * 32, cells * 32, LetterboxAlign::centre);
    auto d_out = to_device(out);
    cuda::DeviceBuffer d_lists(sizeof(DetectionList) * batch);
    launch_decode_faces(d_out.as<float>(), batch, cells, lb, 0.6f, 0.4f, d_lists.as<DetectionList>(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<DetectionList> got(batch);
    CUDA_CHECK(cudaMemcpy(got.data(), d_lists.as(), sizeof(DetectionList) * batch, cudaMemcpyDeviceToHost));
    for (int i = 0; i < batch; ++i) {
      const DetectionList want = reference::decode_faces(out.data() + per * i, cells, lb, 0.6f, 0.4f);
      EXPECT_GT(want.count, 1) << "test input too weak to exercise NMS";
      expect_same_detections(got[i], want, "cells " + std::to_string(cells) + " image " + std::to_string(i));
    }
  }
}

// The whole network through the real pipeline path (reader, preprocessing) on a photo.

}  // namespace
}  // namespace vidpipe
