// Several inputs in one process: each input's frames come out in its own file, in
// order and unchanged, and the report has a line per input.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_runner.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

using test::read_json;
using test::vidpipe;

TEST(MultiInputE2E, TwoInputsOfDifferentSizesShareBatchesAndKeepTheirFrames) {
  const std::string a = test::make_clip("multi-a.mp4", 320, 240, 48, "-c:v libx264 -pix_fmt yuv420p -g 12");
  const std::string b = test::make_clip("multi-b.mp4", 256, 144, 30, "-c:v mpeg4 -q:v 2");
  const std::string dir = test::scratch_dir();
  const std::string report = dir + "/multi.json";
  for (const char* mode : {"async --set copy.batch_size=4", "sync"}) {
    const auto r = vidpipe("run --set 'inputs=[" + a + ", " + b + "]' --set device=cpu --set gpu.inference=false "
                           "--set overlay.hud=false --set sink.threads=1 --set metrics.warmup_frames=4 "
                           "--set sink.path=" + dir + "/multi.mp4 --report " + report + " --set copy.mode=" + mode);
    ASSERT_EQ(r.code, 0) << r.output;
    const nlohmann::json j = read_json(report);
    ASSERT_EQ(j.at("inputs").size(), 2u);
    EXPECT_EQ(j.at("inputs")[0].at("frames_decoded"), 48) << mode;
    EXPECT_EQ(j.at("inputs")[1].at("frames_decoded"), 30) << mode;
    EXPECT_EQ(j.at("frames"), 78) << mode;
    const int measured = j.at("frames_measured");
    EXPECT_EQ(j.at("inputs")[0].at("frames_measured").get<int>() + j.at("inputs")[1].at("frames_measured").get<int>(),
              measured);
    EXPECT_NEAR(j.at("inputs")[0].at("fps").get<double>() + j.at("inputs")[1].at("fps").get<double>(),
                j.at("fps").get<double>(), 1e-6 * j.at("fps").get<double>());
    // One output per input, named after the sink path; each frame is its own input's.
    const std::pair<std::string, std::string> outputs[] = {{a, dir + "/multi-0.mp4"}, {b, dir + "/multi-1.mp4"}};
    for (const auto& [source_path, out_path] : outputs) {
      const test::DecodedVideo source = test::decode_all(source_path), out = test::decode_all(out_path);
      ASSERT_EQ(out.frames.size(), source.frames.size()) << out_path;
      EXPECT_EQ(out.width, source.width);
      EXPECT_EQ(out.height, source.height);
      for (std::size_t i = 0; i < out.frames.size(); ++i)
        EXPECT_GT(test::psnr(source.frames[i], out.frames[i]), 30.0) << out_path << " frame " << i << " " << mode;
    }
  }
}

TEST(MultiInputE2E, AMissingInputNamesIt) {
  const std::string a = test::make_clip("multi-a.mp4", 320, 240, 48, "-c:v libx264 -pix_fmt yuv420p -g 12");
  const auto r = vidpipe("run --set 'inputs=[" + a + ", /no/such/second.mp4]' --set device=cpu");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("inputs: input file '/no/such/second.mp4' does not exist"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace vidpipe
