// NVDEC: frames decoded on the GPU's video engine stay in device memory, reach the
// executor with no host copy, and are the same pictures the CPU decoder makes.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <thread>

#include "device/executor.hpp"
#include "source/frame_sources.hpp"
#include "source/nvdec.hpp"
#include "gpu_guard.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

// Plane 0 of a frame in `l`'s layout (rows `pitch` apart), packed to width x height.
std::vector<std::uint8_t> luma_of(const std::uint8_t* frame, const YuvLayout& l) {
  std::vector<std::uint8_t> luma(static_cast<std::size_t>(l.width) * l.height);
  for (int r = 0; r < l.height; ++r)
    std::copy_n(frame + l.offset[0] + static_cast<std::size_t>(r) * l.pitch[0], l.width,
                luma.data() + static_cast<std::size_t>(r) * l.width);
  return luma;
}

// The luma of test::decode_all's frame (planes packed, Y first).
std::vector<std::uint8_t> packed_luma(const std::vector<std::uint8_t>& frame, const YuvLayout& l) {
  return {frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(l.width) * l.height};
}

std::vector<DecodedFrame> read_all(VideoReader& reader) {
  std::vector<DecodedFrame> frames;
  while (auto f = reader.next()) frames.push_back(std::move(*f));
  return frames;
}

TEST(NvdecGpu, DecodesOnTheDeviceAndMatchesTheCpuDecoder) {
  REQUIRE_GPU();
  const std::string clip = test::make_clip("nvdec.mp4", 640, 360, 20, "-c:v libx264 -pix_fmt yuv420p -bf 2 -g 10");
  ReaderOptions ro = test::pageable_reader(clip);
  ro.reader.decoder = Decoder::nvdec;
  VideoReader reader(ro);
  ASSERT_EQ(reader.info().decoder, "nvdec") << "this FFmpeg or GPU cannot decode H.264 on NVDEC";
  EXPECT_TRUE(reader.layout().nv12);
  std::vector<DecodedFrame> frames = read_all(reader);
  ASSERT_EQ(frames.size(), 20u);
  for (const DecodedFrame& f : frames) EXPECT_TRUE(f.on_device()) << "frame " << f.index << " came back to the host";

  ExecutorOptions eo;
  eo.copy.mode = CopyMode::async;
  eo.copy.streams = 2;
  eo.copy.batch_size = 4;
  set_one_input(eo, reader.layout());
  eo.gpu.preprocess.width = eo.gpu.preprocess.height = 160;
  eo.overlay.hud = false;  // the frame must come back as NVDEC decoded it
  eo.clock_origin = steady_seconds();
  auto gpu = make_gpu_executor(eo);
  const YuvLayout& l = reader.layout();
  const test::DecodedVideo cpu = test::decode_all(clip);
  for (std::size_t first = 0; first < frames.size(); first += 4) {
    const int slot = static_cast<int>((first / 4) % gpu->slots());
    gpu->wait_idle(slot);
    std::vector<std::vector<std::uint8_t>> outs(4, std::vector<std::uint8_t>(l.frame_bytes, 0));
    std::vector<std::uint8_t*> ptrs;
    for (auto& o : outs) ptrs.push_back(o.data());
    gpu->submit(slot, std::span(frames).subspan(first, 4), ptrs, HudLines{});
    const BatchTimings t = gpu->wait_done(slot);
    EXPECT_EQ(t.h2d_bytes, 0u) << "an NVDEC frame crossed PCIe";
    for (std::size_t i = 0; i < 4; ++i) {
      // Luma rows of the NV12 result against the CPU decoder's: H.264 decoding is exact.
      EXPECT_GT(test::psnr(luma_of(outs[i].data(), l), packed_luma(cpu.frames[first + i], l)), 50.0)
          << "frame " << first + i;
    }
  }
}

// reader.decoders with NVDEC: two sessions on one file, each on its own segments, give
// one session's frames, the same pictures at the same times in the same order. The split
// reader's frames are its own copies, out of NVDEC's surfaces: all 150 are held at once,
// far more than NVDEC's 32 surfaces (FFmpeg 5 hands out the surfaces themselves).
TEST(NvdecGpu, TwoSessionsOnOneFileGiveOneSessionsFramesAndAllMayBeHeld) {
  REQUIRE_GPU();
  const std::string clip =
      test::make_clip("nvdec-gop30.mp4", 640, 360, 150, "-c:v libx264 -pix_fmt yuv420p -bf 2 -g 30 -keyint_min 30");
  auto luma_of = [](const DecodedFrame& f) {
    EXPECT_TRUE(f.on_device());
    std::vector<std::uint8_t> luma(640 * 360);
    EXPECT_EQ(cudaMemcpy2D(luma.data(), 640, f.frame->data[0], f.frame->linesize[0], 640, 360,
                           cudaMemcpyDeviceToHost),
              cudaSuccess);
    return std::make_pair(f.stream_s, std::move(luma));
  };
  auto decode = [&](int decoders) {
    ReaderOptions ro = test::pageable_reader(clip);
    ro.reader.decoder = Decoder::nvdec;
    ro.reader.decoders.count = decoders;
    VideoReader reader(ro);
    EXPECT_EQ(reader.info().decoder, "nvdec");
    EXPECT_EQ(reader.info().decoders, decoders);
    std::vector<DecodedFrame> held;
    std::vector<std::pair<double, std::vector<std::uint8_t>>> frames;
    while (std::optional<DecodedFrame> f = reader.next())
      if (decoders == 1)
        frames.push_back(luma_of(*f));  // let go at once: one session hands out its surfaces
      else
        held.push_back(std::move(*f));
    for (const DecodedFrame& f : held) frames.push_back(luma_of(f));
    return frames;
  };
  const auto one = decode(1), two = decode(2);
  ASSERT_EQ(one.size(), 150u);
  ASSERT_EQ(two.size(), one.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_DOUBLE_EQ(two[i].first, one[i].first) << "frame " << i;
    EXPECT_TRUE(two[i].second == one[i].second) << "frame " << i << " differs";
  }
}

// All three planes of a three-plane 8-bit 4:2:0 frame, packed as test::decode_all packs them.
std::vector<std::uint8_t> packed_i420(const std::uint8_t* frame, const YuvLayout& l) {
  std::vector<std::uint8_t> planes;
  for (int p = 0; p < 3; ++p) {
    const PlaneView v = plane_of(l, p);
    for (int r = 0; r < v.height; ++r) {
      const std::uint8_t* row = frame + v.offset + static_cast<std::size_t>(r) * v.pitch;
      planes.insert(planes.end(), row, row + v.width);
    }
  }
  return planes;
}

// reader.decoders: [nvdec, cpu] on one file: the CPU decoder goes first (its layout is the
// input's), NVDEC's frames stay on the device, and through the executor (which splits
// NVDEC's interleaved chroma into the CPU layout's planes) every frame is the CPU decoder's
// picture, at its time, in its order: H.264 decoding is exact, so all planes match.
TEST(NvdecGpu, CpuAndNvdecOnOneFileGiveTheCpuDecodersFrames) {
  REQUIRE_GPU();
  const std::string clip =
      test::make_clip("mixed-gop30.mp4", 640, 360, 150, "-c:v libx264 -pix_fmt yuv420p -bf 2 -g 30 -keyint_min 30");
  ReaderOptions ro = test::pageable_reader(clip);
  ro.reader.decoders.kinds = {Decoder::nvdec, Decoder::cpu};
  ro.reader.decoders.count = 2;
  VideoReader reader(ro);
  ASSERT_EQ(reader.info().decoder, "cpu+nvdec");
  EXPECT_EQ(reader.split_kinds(), (std::vector<Decoder>{Decoder::cpu, Decoder::nvdec}));
  const YuvLayout& l = reader.layout();
  ASSERT_FALSE(l.nv12) << "the CPU decoder's layout is the input's";
  const test::DecodedVideo cpu = test::decode_all(clip);
  std::vector<double> cpu_times;  // each frame's time as one CPU decoder gives it
  {
    VideoReader one(test::pageable_reader(clip));
    while (std::optional<DecodedFrame> f = one.next()) cpu_times.push_back(f->stream_s);
  }
  ASSERT_EQ(cpu_times.size(), cpu.frames.size());

  ExecutorOptions eo;
  eo.copy.mode = CopyMode::async;
  eo.copy.streams = 2;
  eo.copy.batch_size = 5;
  set_one_input(eo, l);
  eo.gpu.preprocess.width = eo.gpu.preprocess.height = 160;
  eo.overlay.hud = false;
  eo.clock_origin = steady_seconds();
  auto gpu = make_gpu_executor(eo);
  // Batch by batch, as the pipeline takes them: the CPU decoder's frames are its pool's
  // buffers, so they are let go as they are done with, not all held.
  std::int64_t next_index = 0;
  int on_device = 0, batches = 0;
  for (;;) {
    std::vector<DecodedFrame> batch;
    while (batch.size() < 5)
      if (std::optional<DecodedFrame> f = reader.next()) batch.push_back(std::move(*f)); else break;
    if (batch.empty()) break;
    const int slot = batches++ % gpu->slots();
    gpu->wait_idle(slot);
    std::vector<std::vector<std::uint8_t>> outs(batch.size(), std::vector<std::uint8_t>(l.frame_bytes, 0));
    std::vector<std::uint8_t*> ptrs;
    for (auto& o : outs) ptrs.push_back(o.data());
    gpu->submit(slot, std::span(batch), ptrs, HudLines{});
    gpu->wait_done(slot);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const DecodedFrame& f = batch[i];
      ASSERT_EQ(f.index, next_index++);
      ASSERT_LT(static_cast<std::size_t>(f.index), cpu.frames.size());
      on_device += f.on_device();
      EXPECT_DOUBLE_EQ(f.stream_s, cpu_times[f.index]) << "frame " << f.index;
      EXPECT_GT(test::psnr(packed_i420(outs[i].data(), l), cpu.frames[f.index]), 50.0)
          << "frame " << f.index << (f.on_device() ? " (NVDEC)" : " (CPU)");
    }
  }
  EXPECT_EQ(next_index, static_cast<std::int64_t>(cpu.frames.size()));
  EXPECT_GT(on_device, 0) << "NVDEC decoded no segment";
  EXPECT_LT(on_device, next_index) << "the CPU decoder decoded no segment";
}

TEST(NvdecGpu, FallsBackToTheCpuWithANoteForACodecNvdecLacks) {
  REQUIRE_GPU();
  // A still PNG: no NVDEC decodes PNG, and every ffmpeg can write one.
  const std::string clip = test::make_clip("nvdec-still.png", 320, 240, 1, "-c:v png -update 1");
  ASSERT_FALSE(clip.empty());
  ReaderOptions ro = test::pageable_reader(clip);
  ro.reader.decoder = Decoder::nvdec;
  VideoReader reader(ro);
  EXPECT_EQ(reader.info().decoder, "cpu");
  auto f = reader.next();
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->on_device());
}

// FFmpeg cannot start NVDEC with more than its 32 decode surfaces and silently decodes in
// software instead, on the one thread NVDEC mode parses on. The reader must notice on the
// first frame, say so, and decode every frame on CPU threads instead.
TEST(NvdecGpu, ASessionThatCannotStartDecodesEveryFrameOnCpuThreads) {
  REQUIRE_GPU();
  const std::string clip = test::make_clip("nvdec-fail.mp4", 640, 360, 20, "-c:v libx264 -pix_fmt yuv420p -bf 2 -g 10");
  ReaderOptions ro = test::pageable_reader(clip);
  ro.reader.decoder = Decoder::nvdec;
  ro.reader.threads = 4;
  ro.nvdec_extra_frames = 40;
  VideoReader reader(ro);
  ASSERT_EQ(reader.info().decoder, "cpu (nvdec did not start)");
  EXPECT_EQ(reader.info().decoder_threads, 4);
  const YuvLayout& l = reader.layout();
  EXPECT_FALSE(l.nv12) << "the CPU decoder's own layout, not NVDEC's";
  const std::vector<DecodedFrame> frames = read_all(reader);
  const test::DecodedVideo cpu = test::decode_all(clip);
  ASSERT_EQ(frames.size(), 20u) << "the frame NVDEC's attempt decoded must not be lost";
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(frames[i].index, static_cast<std::int64_t>(i));
    ASSERT_FALSE(frames[i].on_device());
    EXPECT_EQ(luma_of(frames[i].data(), l), packed_luma(cpu.frames[i], l)) << "frame " << i;
  }
}

// Many looping inputs, opened at once as a run opens them: one FFmpeg CUDA device for
// all, one NVDEC session each for the whole run (a new one at every wrap of the loop
// stalled 64 inputs for seconds), and every pass the CPU decoder's pictures, in order,
// though each reader thread maps and copies on a stream of its own.
TEST(NvdecGpu, LoopingInputsShareOneDeviceAndKeepTheirSessions) {
  REQUIRE_GPU();
  const std::string clip = test::make_clip("nvdec-loop.mp4", 320, 240, 24, "-c:v libx264 -pix_fmt yuv420p -bf 2 -g 8");
  const test::DecodedVideo cpu = test::decode_all(clip);
  ASSERT_EQ(cpu.frames.size(), 24u);
  constexpr int inputs = 4, passes = 3;
  std::vector<ReaderOptions> options(inputs, test::pageable_reader(clip));
  for (ReaderOptions& ro : options) {
    ro.reader.decoder = Decoder::nvdec;
    ro.input.loop = true;
  }
  const std::int64_t sessions_before = NvdecDecoder::sessions_started();
  std::vector<std::unique_ptr<VideoReader>> readers = open_readers(options);
  EXPECT_EQ(NvdecDecoder::devices_open(), 1);
  std::vector<std::vector<std::vector<std::uint8_t>>> luma(inputs);
  std::vector<std::thread> threads;
  for (int i = 0; i < inputs; ++i)
    threads.emplace_back([&, i] {
      VideoReader& reader = *readers[i];
      const YuvLayout& l = reader.layout();
      std::vector<std::uint8_t> host(static_cast<std::size_t>(l.width) * l.height);
      while (luma[i].size() < passes * cpu.frames.size()) {
        std::optional<DecodedFrame> f = reader.next();
        if (!f || !f->on_device()) return;
        if (cudaMemcpy2D(host.data(), l.width, f->frame->data[0], f->frame->linesize[0], l.width, l.height,
                         cudaMemcpyDeviceToHost) != cudaSuccess)
          return;
        luma[i].push_back(host);
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(NvdecDecoder::sessions_started() - sessions_before, inputs) << "a session started again at a wrap";
  const YuvLayout& l = readers[0]->layout();
  for (int i = 0; i < inputs; ++i) {
    EXPECT_TRUE(readers[i]->loops_by_feeding_on());
    ASSERT_EQ(luma[i].size(), passes * cpu.frames.size()) << "input " << i << " ended early or left the GPU";
    for (std::size_t n = 0; n < luma[i].size(); ++n)
      EXPECT_GT(test::psnr(luma[i][n], packed_luma(cpu.frames[n % cpu.frames.size()], l)), 50.0)
          << "input " << i << ", frame " << n % cpu.frames.size() << " of pass " << n / cpu.frames.size() + 1;
  }
  readers.clear();
  EXPECT_EQ(NvdecDecoder::devices_open(), 0) << "the shared device outlived its inputs";
}

}  // namespace
}  // namespace vidpipe
