// Phone clips tagged with a display rotation come out upright: the frames are turned on the
// GPU after the upload, the output carries no rotation (players would turn it again), and the
// detector sees the upright picture.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "face_assets.hpp"
#include "memory/cuda_raii.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

// A white block near the top-left corner of a black 320x240 picture: any turn moves it to
// another corner.
std::string marked_clip(int rotate) {
  const std::string plain = test::scratch_dir() + "/marker.mp4";
  const std::string tagged = test::scratch_dir() + "/marker-" + std::to_string(rotate) + ".mp4";
  EXPECT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i \"color=black:size=320x240:rate=25,"
                              "drawbox=x=10:y=10:w=60:h=40:color=white:t=fill\" -frames:v 10 -c:v libx264 "
                              "-pix_fmt yuv420p " + plain),
            0);
  EXPECT_EQ(test::run_command("ffmpeg -loglevel error -y -i " + plain + " -c copy -metadata:s:v:0 rotate=" +
                              std::to_string(rotate) + " " + tagged),
            0);
  return tagged;
}

struct Centroid {
  double x = 0, y = 0;
};

// Where the bright pixels of a frame's luma sit.
Centroid bright_centroid(const std::vector<std::uint8_t>& frame, int width, int height) {
  Centroid c;
  double n = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (frame[static_cast<std::size_t>(y) * width + x] > 128) c.x += x, c.y += y, ++n;
  if (n > 0) c.x /= n, c.y /= n;
  return c;
}

std::string run_turned(const std::string& in, const std::string& name, const std::string& sets) {
  const std::string out = test::scratch_dir() + "/" + name + ".mp4";
  const test::CommandResult r = test::vidpipe("run --input " + in + " --set sink.path=" + out +
                                              " --set gpu.inference=false --set overlay.hud=false "
                                              "--set metrics.report= " + sets);
  EXPECT_EQ(r.code, 0) << r.output;
  return out;
}

class RotationE2E : public ::testing::TestWithParam<int> {};

TEST_P(RotationE2E, TheMarkerLandsWhereFfmpegsAutorotatePutsIt) {
  const int rotate = GetParam();
  const std::string in = marked_clip(rotate);
  const bool swapped = rotate % 180 != 0;
  // ffmpeg's own autorotation (transpose / flips on the CPU) is the independent reference.
  const test::DecodedVideo expected = test::ffmpeg_yuv420p(in, swapped ? 240 : 320, swapped ? 320 : 240);
  const test::DecodedVideo got = test::decode_all(run_turned(in, "turned-" + std::to_string(rotate), "--set device=cpu"));
  ASSERT_EQ(got.width, expected.width);
  ASSERT_EQ(got.height, expected.height);
  ASSERT_EQ(got.frames.size(), 10u);
  const Centroid want = bright_centroid(expected.frames[0], expected.width, expected.height);
  const Centroid have = bright_centroid(got.frames[0], got.width, got.height);
  EXPECT_NEAR(have.x, want.x, 1.0);
  EXPECT_NEAR(have.y, want.y, 1.0);
  EXPECT_GT(test::psnr(got.frames[0], expected.frames[0]), 35.0);
  // Turned already: no rotation left in the output for a player to apply again.
  EXPECT_NE(test::run_command("ffprobe -v error -show_entries stream_side_data=rotation -of csv=p=0 " +
                              test::scratch_dir() + "/turned-" + std::to_string(rotate) + ".mp4 | grep -q ."),
            0);
}

TEST_P(RotationE2E, GpuTurnMatchesTheCpuPath) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU e2e skipped";
  const int rotate = GetParam();
  const std::string in = marked_clip(rotate);
  const test::DecodedVideo cpu = test::decode_all(run_turned(in, "turned-cpu", "--set device=cpu"));
  for (const char* sets : {"--set device=gpu --set copy.batch_size=3", "--set device=gpu --set reader.decoder=nvdec"}) {
    const test::DecodedVideo gpu = test::decode_all(run_turned(in, "turned-gpu", sets));
    ASSERT_EQ(gpu.width, cpu.width) << sets;
    ASSERT_EQ(gpu.frames.size(), cpu.frames.size()) << sets;
    for (std::size_t i = 0; i < gpu.frames.size(); ++i) EXPECT_GT(test::psnr(gpu.frames[i], cpu.frames[i]), 45.0) << sets;
  }
}

INSTANTIATE_TEST_SUITE_P(Turns, RotationE2E, ::testing::Values(90, 180, 270),
                         [](const auto& info) { return "rotate" + std::to_string(info.param); });

// Portrait video as a phone stores it: the pixels lie sideways and the display matrix turns
// them. The detector works on the upright picture, so the boxes land where they land on the
// upright clip: the overlay's pixels (output against input) sit in the same places.
TEST(RotationFacesE2E, BoxesLandOnTheFacesOfSidewaysStoredVideo) {
  const std::string upright = test::scratch_dir() + "/faces-upright.mp4";
  const std::string sideways = test::scratch_dir() + "/faces-sideways.mp4";
  const std::string tagged = test::scratch_dir() + "/faces-tagged.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -i '" + test::opencv_data("Megamind.avi") +
                              "' -an -frames:v 12 -c:v libx264 -qp 0 -pix_fmt yuv420p " + upright),
            0);
  if (test::run_command("ffmpeg -loglevel error -y -i " + upright + " -vf transpose=cclock -c:v libx264 -qp 0 " +
                        sideways) != 0)
    GTEST_SKIP() << "this ffmpeg has no transpose filter";
  // Stored turned a quarter counter-clockwise; the matrix turns it back clockwise.
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -i " + sideways + " -c copy -metadata:s:v:0 rotate=270 " +
                              tagged), 0);
  // The pixels the overlay changed in each frame of a run on `in`.
  auto overlay_mask = [&](const std::string& in, const std::string& name) {
    const std::string out = test::scratch_dir() + "/" + name + ".mp4";
    const test::CommandResult r = test::vidpipe("run --input " + in + " --set sink.path=" + out +
                                                " --set sink.crf=0 --set overlay.hud=false --set metrics.report=");
    EXPECT_EQ(r.code, 0) << r.output;
    const test::DecodedVideo source = test::decode_all(upright), result = test::decode_all(out);
    EXPECT_EQ(result.width, source.width) << name << ": not upright";
    std::vector<bool> mask;
    for (std::size_t f = 0; f < std::min(source.frames.size(), result.frames.size()); ++f)
      for (int i = 0; i < source.width * source.height; ++i)
        mask.push_back(std::abs(int(source.frames[f][i]) - result.frames[f][i]) > 30);
    return mask;
  };
  const std::vector<bool> want = overlay_mask(upright, "boxes-upright"), got = overlay_mask(tagged, "boxes-tagged");
  ASSERT_EQ(got.size(), want.size()) << "the tagged clip's output should be upright, the size of the upright clip's";
  std::size_t both = 0, either = 0;
  for (std::size_t i = 0; i < want.size(); ++i) both += want[i] && got[i], either += want[i] || got[i];
  ASSERT_GT(either, 12u * 200) << "no boxes drawn at all";
  EXPECT_GT(double(both) / either, 0.8) << "the boxes of the tagged clip are not where the upright clip's are";
}

}  // namespace
}  // namespace vidpipe
