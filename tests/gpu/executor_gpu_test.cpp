// The GPU executor must produce what the CPU executor produces, in every copy mode:
// same network tensor, and the download returns the uploaded frame unchanged.
#include <gtest/gtest.h>

#include <cmath>

#include "device/executor.hpp"
#include "gpu_guard.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

struct Mode {
  CopyMode mode;
  HostMemory memory;
  int streams, batch;
  std::size_t chunk;
  const char* name;
};

class ExecutorGpu : public ::testing::TestWithParam<Mode> {};

// A small network input and no HUD, so the round trip must give back the uploaded frame unchanged.
ExecutorOptions round_trip_options(std::vector<YuvLayout> layouts) {
  ExecutorOptions eo;
  eo.layouts = std::move(layouts);
  eo.gpu.preprocess.width = eo.gpu.preprocess.height = 160;
  eo.gpu.preprocess.mean = {100., 100., 100.};
  eo.gpu.preprocess.scale = 1.f / 64.f;
  eo.overlay.hud = false;
  eo.clock_origin = steady_seconds();
  return eo;
}

// Largest difference between image `image` of a batch's tensor and a one-image reference.
double worst_difference(const std::vector<float>& batch_tensor, std::size_t image, const std::vector<float>& ref) {
  double worst = 0;
  for (std::size_t k = 0; k < ref.size(); ++k)
    worst = std::max(worst, std::abs(double(batch_tensor[image * ref.size() + k]) - ref[k]));
  return worst;
}

TEST_P(ExecutorGpu, MatchesCpuExecutor) {
  REQUIRE_GPU();
  const Mode m = GetParam();
  const std::string clip = test::make_clip("exec.mp4", 480, 270, 8, "-c:v libx264 -pix_fmt yuv420p");
  ReaderOptions ro;
  ro.uri = clip;
  ro.memory = m.memory;
  VideoReader reader(ro);
  std::vector<DecodedFrame> frames;
  while (auto f = reader.next()) frames.push_back(std::move(*f));
  ASSERT_EQ(frames.size(), 8u);

  ExecutorOptions eo = round_trip_options({reader.layout()});
  eo.copy.mode = m.mode;
  eo.copy.streams = m.streams;
  eo.copy.batch_size = m.batch;
  eo.copy.chunk_bytes = m.chunk;
  auto gpu = make_gpu_executor(eo);
  ExecutorOptions co = eo;
  co.copy.batch_size = 1;
  auto cpu = make_cpu_executor(co);
  const std::size_t fb = reader.layout().frame_bytes;

  const int batch = m.mode == CopyMode::sync ? 1 : m.batch;
  for (std::size_t first = 0; first < frames.size(); first += batch) {
    const int slot = static_cast<int>((first / batch) % gpu->slots());
    gpu->wait_idle(slot);
    const std::size_t n = std::min<std::size_t>(batch, frames.size() - first);
    std::vector<std::vector<std::uint8_t>> outs(n, std::vector<std::uint8_t>(fb, 0xCD));
    std::vector<std::uint8_t*> out_ptrs;
    for (auto& o : outs) out_ptrs.push_back(o.data());
    gpu->submit(slot, {frames.data() + first, n}, out_ptrs, HudLines{});
    const BatchTimings t = gpu->wait_done(slot);
    EXPECT_GE(t.gpu_end, t.gpu_begin);
    EXPECT_EQ(t.h2d_bytes, n * fb);
    const std::vector<float> gpu_tensor = gpu->read_tensor(slot);
    ASSERT_EQ(gpu_tensor.size(), n * 160 * 160 * 3);
    for (std::size_t i = 0; i < n; ++i) {
      const DecodedFrame& f = frames[first + i];
      EXPECT_TRUE(std::equal(outs[i].begin(), outs[i].end(), f.data())) << "round trip of frame " << f.index;
      std::vector<std::uint8_t> cpu_out(fb);
      std::uint8_t* cpu_ptr = cpu_out.data();
      cpu->submit(0, {&f, 1}, {&cpu_ptr, 1}, HudLines{});
      const std::vector<float> ref = cpu->read_tensor(0);
      // Each byte may differ by one code after two roundings: 1/64 per element.
      EXPECT_LE(worst_difference(gpu_tensor, i, ref), 2.0 / 64 + 1e-6) << "frame " << f.index;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Modes, ExecutorGpu,
    ::testing::Values(Mode{CopyMode::sync, HostMemory::pageable, 1, 1, 0, "sync_pageable"},
                      Mode{CopyMode::sync, HostMemory::pinned, 1, 1, 0, "sync_pinned"},
                      Mode{CopyMode::async, HostMemory::pinned, 1, 1, 0, "async_1"},
                      Mode{CopyMode::async, HostMemory::pinned, 3, 1, 0, "async_3"},
                      Mode{CopyMode::async, HostMemory::pinned, 2, 3, 0, "async_batch3"},
                      Mode{CopyMode::async, HostMemory::pinned, 4, 1, 40000, "async_chunked"},
                      Mode{CopyMode::async, HostMemory::pageable, 2, 1, 0, "async_pageable"}),
    [](const auto& info) { return std::string(info.param.name); });

// Frames of two inputs of different sizes in one batch: each comes back unchanged and
// its network input matches the CPU path for its own input.
TEST(ExecutorGpuMixed, BatchOfTwoInputsMatchesTheCpuPath) {
  REQUIRE_GPU();
  const std::string a = test::make_clip("mixed-a.mp4", 480, 270, 4, "-c:v libx264 -pix_fmt yuv420p");
  const std::string b = test::make_clip("mixed-b.mp4", 200, 300, 4, "-c:v libx264 -pix_fmt yuv420p");
  ReaderOptions ra, rb;
  ra.uri = a;
  rb.uri = b;
  VideoReader reader_a(ra), reader_b(rb);
  reader_b.set_source(1);
  std::vector<DecodedFrame> frames;
  for (int i = 0; i < 4; ++i) {  // a, a, b, b, a, a, b, b: runs of one input, as the pipeline sorts them
    VideoReader& r = (i % 2 == 0) ? reader_a : reader_b;
    for (int k = 0; k < 2; ++k) frames.push_back(std::move(*r.next()));
  }
  ExecutorOptions eo = round_trip_options({reader_a.layout(), reader_b.layout()});
  eo.copy.mode = CopyMode::async;
  eo.copy.streams = 2;
  eo.copy.batch_size = 8;
  auto gpu = make_gpu_executor(eo);
  ExecutorOptions co = eo;
  co.copy.batch_size = 1;
  auto cpu = make_cpu_executor(co);
  std::vector<std::vector<std::uint8_t>> outs;
  std::vector<std::uint8_t*> ptrs;
  for (const DecodedFrame& f : frames) outs.emplace_back(eo.layouts[f.source].frame_bytes, 0xCD);
  for (auto& o : outs) ptrs.push_back(o.data());
  gpu->submit(0, frames, ptrs, HudLines{});
  gpu->wait_done(0);
  const std::vector<float> tensor = gpu->read_tensor(0);
  const std::size_t per_frame = 160 * 160 * 3;
  ASSERT_EQ(tensor.size(), frames.size() * per_frame);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const DecodedFrame& f = frames[i];
    EXPECT_TRUE(std::equal(outs[i].begin(), outs[i].end(), f.data())) << "input " << f.source << " frame " << f.index;
    std::vector<std::uint8_t> cpu_out(eo.layouts[f.source].frame_bytes);
    std::uint8_t* cpu_ptr = cpu_out.data();
    cpu->submit(0, {&f, 1}, {&cpu_ptr, 1}, HudLines{});
    const std::vector<float> ref = cpu->read_tensor(0);
    ASSERT_EQ(ref.size(), per_frame);
    EXPECT_LE(worst_difference(tensor, i, ref), 2.0 / 64 + 1e-6) << "input " << f.source << " frame " << f.index;
  }
}

}  // namespace
}  // namespace vidpipe
