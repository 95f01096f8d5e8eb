// The whole TinyFaceDetector on the GPU against the CPU twin on a real photo, and both
// executors agreeing on detections and overlay.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include "memory/cuda_raii.hpp"
#include "device/executor.hpp"
#include "face_assets.hpp"
#include "device/face_model.hpp"
#include "device/face_net_gpu.hpp"
#include "memory/frame_layout.hpp"
#include "device/glyph_atlas.hpp"
#include "gpu_guard.hpp"
#include "letterbox/letterbox.hpp"
#include "overlay/overlay.cuh"
#include "tiny_face/tiny_face_layers_ref.hpp"
#include "tiny_face/tiny_face_layers.cuh"
#include "detections.hpp"
#include "device_data.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support


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
    set_one_input(eo, reader.layout());
    eo.gpu.preprocess.width = eo.gpu.preprocess.height = size;
    auto cpu = make_cpu_executor(eo);
    std::vector<std::uint8_t> out(eo.layouts[0].frame_bytes);
    std::uint8_t* out_ptr = out.data();
    cpu->submit(0, {&*frame, 1}, {&out_ptr, 1}, HudLines{});
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
// gpu.cuda_graphs: the replayed graph runs the same kernels in the same order, so its output
// is the direct launches' bit for bit, and a replay reads what the input buffer holds now
// (the frame of this batch), not what it held when the graph was captured.
TEST(FaceNetGpu, GraphReplayMatchesTheDirectLaunchesAndReadsTheCurrentInput) {
  REQUIRE_GPU();
  const TinyFaceNetGpu net(load_tiny_face_model(test::model_dir()), 416);
  constexpr int max_batch = 3;
  TinyFaceNetGpu::Scratch scratch = net.make_scratch(max_batch);
  const cuda::Stream stream;
  const std::size_t image = 3 * 416 * 416;
  const std::size_t out_image = std::size_t(TinyFaceWeights::outputs) * net.cells() * net.cells();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-0.5f, 0.5f);
  std::vector<std::vector<float>> inputs(2, std::vector<float>(image * max_batch));
  for (auto& in : inputs)
    for (float& v : in) v = value(rng);
  cuda::DeviceBuffer input(image * max_batch * sizeof(float));
  auto output_of = [&](const std::vector<float>& in, int batch, bool graphed, cudaStream_t on) {
    CUDA_CHECK(cudaMemcpyAsync(input.as(), in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice, on));
    const float* out = graphed ? net.run_graphed(input.as<float>(), batch, scratch, on)
                               : net.run(input.as<float>(), batch, scratch, on);
    std::vector<float> host(out_image * batch);
    CUDA_CHECK(cudaMemcpyAsync(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost, on));
    CUDA_CHECK(cudaStreamSynchronize(on));
    return host;
  };
  // Sync mode queues on the legacy stream, which cannot be captured: the graph still runs there.
  for (const cudaStream_t on : {stream.get(), cudaStreamLegacy})
    for (int batch : {1, max_batch}) {
      for (const auto& in : inputs) {  // the first captures, the second replays
        const std::vector<float> direct = output_of(in, batch, false, on);
        const std::vector<float> replayed = output_of(in, batch, true, on);
        ASSERT_EQ(direct, replayed) << "batch " << batch;
      }
      EXPECT_NE(output_of(inputs[0], batch, true, on), output_of(inputs[1], batch, true, on))
          << "the input did not matter";
    }
  EXPECT_EQ(scratch.graphs.size(), 2u) << "one graph per batch size on one input buffer";
}

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
  set_one_input(eo, reader.layout());
  eo.copy.batch_size = 4;
  eo.copy.streams = 1;
  eo.model = std::make_shared<const TinyFaceWeights>(load_tiny_face_model(test::model_dir()));
  eo.overlay.hud = false;  // the HUD shows live fps, which differs between the two
  auto gpu = make_gpu_executor(eo);
  auto cpu = make_cpu_executor(eo);
  const std::size_t fb = eo.layouts[0].frame_bytes;
  std::vector<std::vector<std::uint8_t>> g_out(4, std::vector<std::uint8_t>(fb)), c_out = g_out;
  std::vector<std::uint8_t*> g_ptr, c_ptr;
  for (int i = 0; i < 4; ++i) g_ptr.push_back(g_out[i].data()), c_ptr.push_back(c_out[i].data());
  gpu->submit(0, frames, g_ptr, HudLines{});
  gpu->wait_done(0);
  const auto g_det = gpu->detections(0);
  int faces = 0;
  for (int i = 0; i < 4; ++i) {
    cpu->submit(0, {&frames[i], 1}, {&c_ptr[i], 1}, HudLines{});
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
