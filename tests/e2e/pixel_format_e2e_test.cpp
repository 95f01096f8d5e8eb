// Real-world pixel formats: 10-bit, 4:2:2 and 4:4:4 go to the GPU as decoded and are narrowed
// there (the report's upload bytes are the decoder's own), come out as 8-bit 4:2:0 that
// matches ffmpeg's own conversion, keep their colour tags; R'G'B' and gray sources keep
// their colours; NVDEC's P010 runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli_runner.hpp"
#include "memory/cuda_raii.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

struct Wide {
  const char* format;
  double bytes_per_pixel;  // of the decoded frame: what crosses the link when it goes in as decoded
};
const Wide wide_formats[] = {{"yuv420p10le", 3.0}, {"yuv422p", 2.0}, {"yuv444p", 3.0}, {"yuv444p10le", 6.0}};

std::string wide_clip(const char* format) {
  return test::make_clip(std::string("wide-") + format + ".mp4", 322, 242, 12,
                         std::string("-c:v libx264 -g 6 -pix_fmt ") + format);
}

struct RunResult {
  std::string video;
  nlohmann::json report;
};

// Overlay and detector off: the output is the input's picture, narrowed and encoded.
RunResult run_plain(const std::string& input, const std::string& name, const std::string& sets) {
  const std::string out = test::scratch_dir() + "/" + name + ".mp4";
  const std::string report = test::scratch_dir() + "/" + name + ".json";
  const test::CommandResult r =
      test::vidpipe("run --input " + input + " --set sink.path=" + out + " --report " + report +
                    " --set gpu.inference=false --set overlay.hud=false --set sink.threads=1 --set sink.crf=10 " + sets);
  EXPECT_EQ(r.code, 0) << r.output;
  return {out, test::read_json(report)};
}

TEST(PixelFormatE2E, WideFormatsGoUpAsDecodedAndComeOutAsFfmpegConvertsThem) {
  for (const Wide& w : wide_formats) {
    const std::string clip = wide_clip(w.format);
    const RunResult run = run_plain(clip, std::string("wide-cpu-") + w.format, "--set device=cpu");
    EXPECT_EQ(test::video_field(run.video, "pix_fmt"), "yuv420p") << w.format;
    // The upload carried the decoder's samples, not a host-converted 8-bit 4:2:0 frame.
    EXPECT_GE(run.report.at("h2d_bytes_per_frame").get<double>(), w.bytes_per_pixel * 322 * 242) << w.format;
    const test::DecodedVideo got = test::decode_all(run.video), want = test::ffmpeg_yuv420p(clip, 322, 242);
    ASSERT_EQ(got.frames.size(), 12u) << w.format;
    ASSERT_EQ(want.frames.size(), 12u) << w.format;
    for (std::size_t i = 0; i < got.frames.size(); ++i) {
      const double same = test::psnr(got.frames[i], want.frames[i]);
      EXPECT_GT(same, 38.0) << w.format << " frame " << i;
      EXPECT_GT(same, test::psnr(got.frames[i], want.frames[(i + 1) % want.frames.size()])) << w.format << " " << i;
    }
  }
}

// The matrix and range a source is tagged with are the ones its output is tagged with (the
// GPU stage reads the frames with them too: the yuv_to_bgr tests cover each matrix).
TEST(PixelFormatE2E, ColourTagsGoFromInputToOutput) {
  struct Tags {
    const char *space, *range, *format;
  };
  for (const Tags t : {Tags{"bt2020nc", "tv", "yuv420p10le"}, Tags{"bt709", "pc", "yuv444p"},
                       Tags{"smpte170m", "pc", "yuv422p10le"}}) {
    const std::string name = std::string("tags-") + t.space + "-" + t.range;
    const std::string clip = test::make_clip(name + ".mp4", 128, 96, 4,
                                             std::string("-c:v libx264 -pix_fmt ") + t.format + " -colorspace " +
                                                 t.space + " -color_range " + t.range);
    const RunResult run = run_plain(clip, name + "-out", "--set device=cpu");
    EXPECT_EQ(test::video_field(run.video, "color_space"), test::video_field(clip, "color_space")) << name;
    EXPECT_EQ(test::video_field(run.video, "color_range"), test::video_field(clip, "color_range")) << name;
  }
}

// A still or clip in R'G'B' or gray shows the same colours after vidpipe as before: the
// conversion's range and matrix are the ones the output is tagged with.
TEST(PixelFormatE2E, RgbAndGraySourcesKeepTheirColours) {
  struct Source {
    const char* name;
    std::string make;  // ffmpeg arguments after the lavfi input
    int r, g, b;
  };
  const std::string dir = test::scratch_dir();
  const Source sources[] = {
      {"red.png", "-frames:v 1 -pix_fmt rgb24", 253, 0, 0},
      {"gray.png", "-frames:v 1 -pix_fmt gray", 76, 76, 76},
      {"rgb.mkv", "-frames:v 3 -c:v libx264rgb -pix_fmt rgb24", 40, 200, 90},
      {"gray.avi", "-frames:v 3 -c:v rawvideo -pix_fmt gray", 180, 180, 180},
      {"bgr24.avi", "-frames:v 3 -c:v rawvideo -pix_fmt bgr24", 20, 60, 220}};
  for (const Source& s : sources) {
    if (s.make.find("libx264rgb") != std::string::npos && !test::ffmpeg_has_encoder("libx264rgb")) {
      std::cout << "(no libx264rgb in this ffmpeg: " << s.name << " left out)\n";
      continue;
    }
    const std::string in = dir + "/colour-" + s.name;
    char colour[16];
    std::snprintf(colour, sizeof colour, "0x%02X%02X%02X", s.r, s.g, s.b);
    ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i color=c=" + std::string(colour) +
                                ":size=64x48:rate=30 " + s.make + " '" + in + "'"),
              0)
        << s.name;
    const RunResult run = run_plain(in, std::string("colour-out-") + s.name, "--set device=cpu");
    const std::vector<std::uint8_t> rgb = test::first_frame_rgb(run.video);
    ASSERT_EQ(rgb.size(), 64u * 48 * 3) << s.name;
    const std::size_t centre = (24 * 64 + 32) * 3;
    EXPECT_NEAR(rgb[centre], s.r, 4) << s.name;
    EXPECT_NEAR(rgb[centre + 1], s.g, 4) << s.name;
    EXPECT_NEAR(rgb[centre + 2], s.b, 4) << s.name;
  }
}

// Wide, turned and deinterlaced at once: every buffer between the upload and the working
// frame is in use (decoded -> narrowed -> deinterlaced -> turned). The result must be the
// upright picture ffmpeg's autorotate shows, as the 8-bit 4:2:0 form of the same clip gives.
std::string turned_wide_clip(const char* format) {
  const std::string plain = wide_clip(format);
  const std::string tagged = test::scratch_dir() + "/turned-" + format + ".mp4";
  EXPECT_EQ(test::run_command("ffmpeg -loglevel error -y -i " + plain + " -c copy -metadata:s:v:0 rotate=90 " + tagged), 0);
  return tagged;
}

TEST(PixelFormatE2E, WideTurnedAndDeinterlacedMatchesItsEightBitTwin) {
  const std::string sets = "--set device=cpu --set reader.deinterlace=on";
  const test::DecodedVideo eight = test::decode_all(run_plain(turned_wide_clip("yuv420p"), "turned-8", sets).video);
  const test::DecodedVideo ten = test::decode_all(run_plain(turned_wide_clip("yuv444p10le"), "turned-10", sets).video);
  ASSERT_EQ(ten.width, 242);  // turned upright: 322x242 stored, shown 242 wide
  ASSERT_EQ(ten.height, 322);
  ASSERT_EQ(eight.frames.size(), ten.frames.size());
  for (std::size_t i = 0; i < ten.frames.size(); ++i)
    EXPECT_GT(test::psnr(ten.frames[i], eight.frames[i]), 35.0) << "frame " << i;
}

// Each wide clip, and one that is also turned and deinterlaced, on the GPU (sync, and async
// batched across two streams) against the CPU path's output.
TEST(PixelFormatE2E, GpuNarrowsAsTheCpuPathDoes) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU e2e skipped";
  std::vector<std::pair<std::string, std::string>> inputs;  // clip, extra settings
  for (const Wide& w : wide_formats) inputs.emplace_back(wide_clip(w.format), "");
  inputs.emplace_back(turned_wide_clip("yuv444p10le"), "--set reader.deinterlace=on");
  for (const auto& [clip, extra] : inputs) {
    const std::string stem = std::filesystem::path(clip).stem().string();
    const test::DecodedVideo reference =
        test::decode_all(run_plain(clip, "ref-" + stem, "--set device=cpu " + extra).video);
    for (const auto& [mode, sets] : std::vector<std::pair<std::string, std::string>>{
             {"sync", "--set device=gpu --set copy.mode=sync"},
             {"async", "--set device=gpu --set copy.streams=2 --set copy.batch_size=4"}}) {
      const std::string name = "gpu-" + mode + "-" + stem;
      const test::DecodedVideo got = test::decode_all(run_plain(clip, name, sets + " " + extra).video);
      ASSERT_EQ(got.frames.size(), reference.frames.size()) << name;
      for (std::size_t i = 0; i < got.frames.size(); ++i)
        EXPECT_GT(test::psnr(got.frames[i], reference.frames[i]), 45.0) << name << " frame " << i;
    }
  }
}

// sink.pixel_format: the encoder writes the format asked for, converted from the stage's
// 8-bit 4:2:0 result, and the picture is still the input's; a name FFmpeg does not know, or
// one the encoder cannot take, is a configuration error before anything is written.
TEST(PixelFormatE2E, SinkPixelFormatIsWhatTheOutputHolds) {
  const std::string clip = wide_clip("yuv444p");
  const test::DecodedVideo want = test::ffmpeg_yuv420p(clip, 322, 242);
  for (const char* format : {"yuv444p", "yuv420p10le", "yuv422p"}) {
    const RunResult run = run_plain(clip, std::string("written-") + format,
                                    std::string("--set device=cpu --set sink.pixel_format=") + format);
    EXPECT_EQ(test::video_field(run.video, "pix_fmt"), format);
    const test::DecodedVideo got = test::decode_all(run.video);
    ASSERT_EQ(got.frames.size(), want.frames.size()) << format;
    for (std::size_t i = 0; i < got.frames.size(); ++i)
      EXPECT_GT(test::psnr(got.frames[i], want.frames[i]), 38.0) << format << " frame " << i;
  }
  for (const char* wrong : {"yuv9000p", "pal8"}) {
    const std::string out = test::scratch_dir() + "/written-wrong.mp4";
    const test::CommandResult r = test::vidpipe("run --input " + clip + " --set device=cpu --set gpu.inference=false "
                                                "--set sink.codec=libx264 --set sink.pixel_format=" + wrong +
                                                " --set sink.path=" + out);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("sink.pixel_format"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_FALSE(test::temporary_left(out));
  }
}

// Non-square pixels (SAR): the output carries the sample aspect so players show the display
// aspect, turned with the picture where the input is turned a quarter.
TEST(PixelFormatE2E, SampleAspectIsKeptAndTurnedWithThePicture) {
  const std::string plain = test::make_clip("anamorphic.mp4", 320, 240, 4, "-c:v libx264 -pix_fmt yuv420p -vf setsar=16/11");
  const std::string turned = test::scratch_dir() + "/anamorphic-turned.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -i " + plain + " -c copy -metadata:s:v:0 rotate=90 " + turned), 0);
  EXPECT_EQ(test::video_field(plain, "sample_aspect_ratio"), "16:11");
  EXPECT_EQ(test::video_field(run_plain(plain, "anamorphic-out", "--set device=cpu").video, "sample_aspect_ratio"),
            "16:11");
  EXPECT_EQ(test::video_field(run_plain(turned, "anamorphic-turned-out", "--set device=cpu").video,
                              "sample_aspect_ratio"),
            "11:16");
}

// HEVC Main10 through NVDEC arrives as P010 on the device. The clip is made here where this
// ffmpeg has libx265, else taken from $VIDPIPE_CLIPS (the GPU machine's bundle has no HEVC
// encoder: scripts/device/pack.sh makes it beforehand).
std::string hevc_main10_clip() {
  if (test::ffmpeg_has_encoder("libx265"))
    return test::make_clip("hevc-main10.mp4", 320, 240, 12, "-c:v libx265 -pix_fmt yuv420p10le -x265-params log-level=error");
  const char* dir = std::getenv("VIDPIPE_CLIPS");
  return dir ? std::string(dir) + "/hevc-main10-small.mp4" : "";
}

TEST(PixelFormatE2E, NvdecTakesHevcMainTen) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU e2e skipped";
  const std::string clip = hevc_main10_clip();
  if (clip.empty()) GTEST_SKIP() << "no libx265 here and no $VIDPIPE_CLIPS: no HEVC Main10 clip";
  const RunResult cpu = run_plain(clip, "hevc10-cpu", "--set device=cpu");
  const RunResult nvdec = run_plain(clip, "hevc10-nvdec", "--set device=gpu --set reader.decoder=nvdec");
  EXPECT_EQ(nvdec.report.at("inputs").at(0).at("decoder"), "nvdec") << nvdec.report.dump();
  const test::DecodedVideo want = test::decode_all(cpu.video), got = test::decode_all(nvdec.video);
  ASSERT_EQ(got.frames.size(), want.frames.size());
  ASSERT_FALSE(got.frames.empty());
  for (std::size_t i = 0; i < got.frames.size(); ++i)
    EXPECT_GT(test::psnr(got.frames[i], want.frames[i]), 40.0) << "frame " << i;
}

}  // namespace
}  // namespace vidpipe
