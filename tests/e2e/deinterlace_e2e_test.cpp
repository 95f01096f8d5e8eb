// reader.deinterlace: an interlaced clip (field order tt) loses its combing in the output;
// a progressive clip is left alone with auto; on and off override the stream.
#include <gtest/gtest.h>

#include <cmath>

#include "cli_runner.hpp"
#include "memory/cuda_raii.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

// Moving content at 50 fields a second woven into 25 frames, coded interlaced, top field
// first; "" where this ffmpeg lacks the filters (the GPU machine's may).
std::string interlaced_clip() {
  const std::string path = test::scratch_dir() + "/interlaced.mp4";
  return test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=50 -frames:v 40 "
                           "-vf tinterlace=interleave_top,fieldorder=tff -c:v libx264 -flags +ildct+ilme "
                           "-x264opts tff=1 -qp 4 -pix_fmt yuv420p " + path) == 0
             ? path
             : "";
}

// Mean |2 Y(y) - Y(y-1) - Y(y+1)| over a frame's luma: high where the rows of two fields
// taken at different times alternate.
double combing(const std::vector<std::uint8_t>& f, int width, int height) {
  double sum = 0;
  for (int y = 1; y + 1 < height; ++y)
    for (int x = 0; x < width; ++x) {
      const auto at = [&](int yy) { return double(f[static_cast<std::size_t>(yy) * width + x]); };
      sum += std::abs(2 * at(y) - at(y - 1) - at(y + 1));
    }
  return sum / (double(width) * (height - 2));
}

double mean_combing(const std::string& path) {
  const test::DecodedVideo v = test::decode_all(path);
  double sum = 0;
  for (const auto& f : v.frames) sum += combing(f, v.width, v.height);
  return sum / v.frames.size();
}

std::string run(const std::string& in, const std::string& name, const std::string& sets) {
  const std::string out = test::scratch_dir() + "/" + name + ".mp4";
  const test::CommandResult r = test::vidpipe("run --input " + in + " --set sink.path=" + out +
                                              " --set gpu.inference=false --set overlay.hud=false --set sink.crf=4 "
                                              "--set metrics.report= " + sets);
  EXPECT_EQ(r.code, 0) << r.output;
  return out;
}

TEST(DeinterlaceE2E, InterlacedInputLosesItsCombing) {
  const std::string in = interlaced_clip();
  if (in.empty()) GTEST_SKIP() << "this ffmpeg cannot make an interlaced clip (tinterlace)";
  const double woven = mean_combing(run(in, "deint-off", "--set device=cpu --set reader.deinterlace=off"));
  const double bobbed = mean_combing(run(in, "deint-auto", "--set device=cpu"));
  EXPECT_LT(bobbed, 0.5 * woven) << "combing " << woven << " -> " << bobbed;
}

TEST(DeinterlaceE2E, ProgressiveInputIsLeftAloneUnlessAsked) {
  const std::string in = test::make_clip("progressive.mp4", 320, 240, 20, "-c:v libx264 -qp 4 -pix_fmt yuv420p");
  const test::DecodedVideo source = test::decode_all(in);
  const test::DecodedVideo automatic = test::decode_all(run(in, "prog-auto", "--set device=cpu"));
  const test::DecodedVideo forced = test::decode_all(run(in, "prog-on", "--set device=cpu --set reader.deinterlace=on"));
  ASSERT_EQ(automatic.frames.size(), source.frames.size());
  double auto_psnr = 0, forced_psnr = 0;
  for (std::size_t i = 0; i < source.frames.size(); ++i) {
    auto_psnr += test::psnr(automatic.frames[i], source.frames[i]) / source.frames.size();
    forced_psnr += test::psnr(forced.frames[i], source.frames[i]) / source.frames.size();
  }
  EXPECT_GT(auto_psnr, 40.0) << "auto touched a progressive clip";
  EXPECT_LT(forced_psnr, auto_psnr - 3) << "on did not deinterlace";
}

TEST(DeinterlaceE2E, GpuMatchesTheCpuPath) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU e2e skipped";
  const std::string in = interlaced_clip();
  if (in.empty()) GTEST_SKIP() << "this ffmpeg cannot make an interlaced clip (tinterlace)";
  const test::DecodedVideo cpu = test::decode_all(run(in, "deint-cpu", "--set device=cpu"));
  for (const char* sets : {"--set device=gpu --set copy.batch_size=2", "--set device=gpu --set reader.decoder=nvdec"}) {
    const test::DecodedVideo gpu = test::decode_all(run(in, "deint-gpu", sets));
    ASSERT_EQ(gpu.frames.size(), cpu.frames.size()) << sets;
    for (std::size_t i = 0; i < gpu.frames.size(); ++i) EXPECT_GT(test::psnr(gpu.frames[i], cpu.frames[i]), 45.0) << sets;
  }
}

}  // namespace
}  // namespace vidpipe
