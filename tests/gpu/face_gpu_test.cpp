// TinyFaceDetector on the GPU against the CPU reference: each layer on random
// inputs, box decoding, the whole network on a real photo, and the overlay.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cuda_raii.hpp"
#include "executor.hpp"
#include "face_assets.hpp"
#include "face_model.hpp"
#include "face_net_gpu.hpp"
#include "frame_layout.hpp"
#include "glyph_atlas.hpp"
#include "gpu_guard.hpp"
#include "letterbox.hpp"
#include "overlay.cuh"
#include "reference/reference.hpp"
#include "reference/tiny_face_ref.hpp"
#include "tiny_face_layers.cuh"

namespace vidpipe {
namespace {

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

cuda::DeviceBuffer to_device(const std::vector<float>& v) {
  cuda::DeviceBuffer d(v.size() * sizeof(float));
  CUDA_CHECK(cudaMemcpy(d.as(), v.data(), d.bytes(), cudaMemcpyHostToDevice));
  return d;
}

std::vector<float> to_host(const cuda::DeviceBuffer& d, std::size_t n) {
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> v(n);
  CUDA_CHECK(cudaMemcpy(v.data(), d.as(), n * sizeof(float), cudaMemcpyDeviceToHost));
  return v;
}

cuda::DeviceBuffer poisoned(std::size_t floats) {
  cuda::DeviceBuffer d(floats * sizeof(float));
  CUDA_CHECK(cudaMemset(d.as(), 0xFF, d.bytes()));  // NaN: unwritten outputs fail the check
  return d;
}

double relative_error(const std::vector<float>& got, const std::vector<float>& want) {
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(got[i])) return INFINITY;
    err += (double(got[i]) - want[i]) * (double(got[i]) - want[i]);
    norm += double(want[i]) * want[i];
  }
  return std::sqrt(err / norm);
}

constexpr int batch = 3;

TEST(FaceLayersGpu, Conv3x3MatchesReference) {
  REQUIRE_GPU();
  for (int pad : {0, 1}) {
    const int C = 3, H = 37, W = 51, K = 16, Ho = H + 2 * pad - 2, Wo = W + 2 * pad - 2;
    const auto in = random_floats(std::size_t(batch) * C * H * W, 1 + pad), w = random_floats(K * C * 9, 2),
               b = random_floats(K, 3);
    auto d_in = to_device(in), d_w = to_device(w), d_b = to_device(b);
    auto d_out = poisoned(std::size_t(batch) * K * Ho * Wo);
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
  auto d_out = poisoned(in.size());
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
    auto d_out = poisoned(std::size_t(batch) * K * P);
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
    auto d_out = poisoned(std::size_t(batch) * C * Ho * Wo);
    launch_maxpool2x2(d_in.as<float>(), batch, C, H, W, stride, d_out.as<float>(), nullptr);
    const auto got = to_host(d_out, std::size_t(batch) * C * Ho * Wo);
    std::vector<float> want(got.size());
    for (int i = 0; i < batch; ++i)
      reference::maxpool2x2(in.data() + std::size_t(i) * C * H * W, C, H, W, stride, want.data() + std::size_t(i) * C * Ho * Wo);
    EXPECT_EQ(got, want) << "stride " << stride;  // a max is exact
  }
}

void expect_same_detections(const DetectionList& got, const DetectionList& want, const std::string& what) {
  ASSERT_EQ(got.count, want.count) << what;
  for (int i = 0; i < want.count; ++i) {
    EXPECT_NEAR(got.det[i].score, want.det[i].score, 1e-4) << what << " #" << i;
    EXPECT_NEAR(got.det[i].x0, want.det[i].x0, 0.05) << what << " #" << i;
    EXPECT_NEAR(got.det[i].y1, want.det[i].y1, 0.05) << what << " #" << i;
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
TEST(FaceNetGpu, WholeNetworkMatchesReferenceOnARealImage) {
  REQUIRE_GPU();
  const TinyFaceWeights w = load_tiny_face_model(test::model_dir());
  for (int size : {416, 608}) {
    ExecutorOptions eo;
    ReaderOptions ro;
    ro.uri = test::opencv_data("messi5.jpg");
    ro.memory = HostMemory::pinned;
    VideoReader reader(ro);
    auto frame = reader.next();
    ASSERT_TRUE(frame);
    eo.layouts = {reader.layout()};
    eo.net_width = eo.net_height = size;
    auto cpu = make_cpu_executor(eo);
    RunMetrics m(0);
    std::vector<std::uint8_t> out(eo.layouts[0].frame_bytes);
    std::uint8_t* out_ptr = out.data();
    cpu->submit(0, {&*frame, 1}, {&out_ptr, 1}, m);
    const std::vector<float> tensor = cpu->read_tensor(0);

    TinyFaceNetGpu net(w, size);
    auto scratch = net.make_scratch(1);
    auto d_in = to_device(tensor);
    const float* d_out = net.run(d_in.as<float>(), 1, scratch, nullptr);
    const std::size_t n = std::size_t(25) * net.cells() * net.cells();
    std::vector<float> got(n);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    const std::vector<float> want = reference::tiny_face_forward(w, tensor.data(), size);
    EXPECT_LT(relative_error(got, want), 1e-3) << "input " << size;
  }
}

// Detections and overlay through both executors must agree on a real video frame.
TEST(FaceNetGpu, ExecutorsAgreeOnDetectionsAndOverlay) {
  REQUIRE_GPU();
  ReaderOptions ro;
  ro.uri = test::opencv_data("Megamind.avi");
  ro.memory = HostMemory::pinned;
  VideoReader reader(ro);
  std::vector<DecodedFrame> frames;
  while (frames.size() < 4) {
    auto f = reader.next();
    ASSERT_TRUE(f);
    if (f->index % 40 == 30) frames.push_back(std::move(*f));  // frames 30, 70, 110, 150
  }
  ExecutorOptions eo;
  eo.layouts = {reader.layout()};
  eo.batch_size = 4;
  eo.streams = 1;
  eo.model = std::make_shared<const TinyFaceWeights>(load_tiny_face_model(test::model_dir()));
  eo.draw_hud = false;  // the HUD shows live fps, which differs between the two
  auto gpu = make_gpu_executor(eo);
  auto cpu = make_cpu_executor(eo);
  RunMetrics m(0);
  const std::size_t fb = eo.layouts[0].frame_bytes;
  std::vector<std::vector<std::uint8_t>> g_out(4, std::vector<std::uint8_t>(fb)), c_out = g_out;
  std::vector<std::uint8_t*> g_ptr, c_ptr;
  for (int i = 0; i < 4; ++i) g_ptr.push_back(g_out[i].data()), c_ptr.push_back(c_out[i].data());
  gpu->submit(0, frames, g_ptr, m);
  gpu->wait_done(0);
  const auto g_det = gpu->detections(0);
  int faces = 0;
  for (int i = 0; i < 4; ++i) {
    cpu->submit(0, {&frames[i], 1}, {&c_ptr[i], 1}, m);
    const DetectionList want = cpu->detections(0)[0];
    expect_same_detections(g_det[i], want, "frame " + std::to_string(frames[i].index));
    faces += want.count;
    // Boxes drawn at the same pixels: allow a few where a coordinate sits on a pixel edge.
    std::size_t differ = 0;
    for (std::size_t k = 0; k < fb; ++k) differ += g_out[i][k] != c_out[i][k];
    EXPECT_LT(differ, 64u) << "frame " << frames[i].index;
  }
  EXPECT_GT(faces, 0) << "no face found in any frame: the comparison proved nothing";
}

}  // namespace
}  // namespace vidpipe
