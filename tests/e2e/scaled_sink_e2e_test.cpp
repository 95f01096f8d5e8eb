// sink.width/height: the output has the asked size, and its pixels are the input's scaled
// (against ffmpeg's own 2:1 scale on the CPU path, and against the CPU path on the GPU).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "memory/cuda_raii.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

std::string clip() { return test::make_clip("scaled-in.mp4", 320, 240, 30, "-c:v libx264 -pix_fmt yuv420p -g 10"); }

struct ScaledRun {
  std::string video;
  nlohmann::json report;
};

// Overlay and detector off: the output is the input's picture, scaled and encoded.
ScaledRun run_scaled(const std::string& name, const std::string& sets) {
  const std::string out = test::scratch_dir() + "/" + name + ".mp4";
  const std::string report = test::scratch_dir() + "/" + name + ".json";
  const test::CommandResult r =
      test::vidpipe("run --input " + clip() + " --set sink.path=" + out + " --report " + report +
                    " --set gpu.inference=false --set overlay.hud=false --set sink.threads=1 --set sink.crf=12 " + sets);
  EXPECT_EQ(r.code, 0) << r.output;
  return {out, test::read_json(report)};
}

TEST(ScaledSinkE2E, WidthAloneKeepsTheAspectAndScalesThePicture) {
  const ScaledRun run = run_scaled("scaled-cpu", "--set device=cpu --set sink.width=160");
  const test::DecodedVideo got = test::decode_all(run.video);
  ASSERT_EQ(got.width, 160);
  ASSERT_EQ(got.height, 120);
  ASSERT_EQ(got.frames.size(), 30u);
  // At 2:1 the bilinear scale is the mean of each 2x2 block, as ffmpeg's area scale is.
  const test::DecodedVideo expected = test::ffmpeg_yuv420p(clip(), 160, 120, "scale=160:120:flags=area");
  ASSERT_EQ(expected.frames.size(), got.frames.size());
  for (std::size_t i = 0; i < got.frames.size(); ++i) {
    const double same = test::psnr(got.frames[i], expected.frames[i]);
    EXPECT_GT(same, 38.0) << "frame " << i;
    // testsrc2 moves every frame: the right frame beats its neighbour.
    EXPECT_GT(same, test::psnr(got.frames[i], expected.frames[(i + 1) % got.frames.size()])) << "frame " << i;
  }
  // The download moved the output's bytes, not the input's.
  const double per_frame_h2d = run.report.at("h2d_bytes_per_frame").get<double>();
  const double per_frame_d2h = run.report.at("d2h_bytes_per_frame").get<double>();
  EXPECT_LT(per_frame_d2h, per_frame_h2d / 3) << run.report.dump();
}

TEST(ScaledSinkE2E, HeightAloneAndBothKeys) {
  const test::DecodedVideo by_height = test::decode_all(run_scaled("scaled-h", "--set device=cpu --set sink.height=90").video);
  EXPECT_EQ(by_height.width, 120);
  EXPECT_EQ(by_height.height, 90);
  const test::DecodedVideo both =
      test::decode_all(run_scaled("scaled-wh", "--set device=cpu --set sink.width=201 --set sink.height=77").video);
  EXPECT_EQ(both.width, 200) << "rounded down to even for 4:2:0";
  EXPECT_EQ(both.height, 76);
}

TEST(ScaledSinkE2E, GpuScaleMatchesTheCpuPath) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU e2e skipped";
  const test::DecodedVideo reference = test::decode_all(run_scaled("scaled-ref", "--set device=cpu --set sink.width=176").video);
  for (const auto& [name, sets] : std::vector<std::pair<std::string, std::string>>{
           {"scaled-gpu-sync", "--set device=gpu --set copy.mode=sync"},
           {"scaled-gpu-async", "--set device=gpu --set copy.streams=2 --set copy.batch_size=4"},
           {"scaled-gpu-nvdec", "--set device=gpu --set reader.decoder=nvdec"}}) {
    const test::DecodedVideo got = test::decode_all(run_scaled(name, sets + " --set sink.width=176").video);
    ASSERT_EQ(got.width, 176) << name;
    ASSERT_EQ(got.frames.size(), reference.frames.size()) << name;
    for (std::size_t i = 0; i < got.frames.size(); ++i)
      EXPECT_GT(test::psnr(got.frames[i], reference.frames[i]), 40.0) << name << " frame " << i;
  }
}

}  // namespace
}  // namespace vidpipe
