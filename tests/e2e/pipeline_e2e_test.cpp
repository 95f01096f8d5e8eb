// Runs the vidpipe binary as a user would and checks what it leaves behind: the
// encoded video (frame count, size, pixels) and the JSON report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "memory/cuda_raii.hpp"
#include "cli_runner.hpp"
#include "face_assets.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

using test::CommandResult;
using test::read_json;
using test::vidpipe;

std::string clip() {
  return test::make_clip("e2e.mp4", 320, 240, 60, "-c:v libx264 -pix_fmt yuv420p -g 15");
}

// Runs one mode and checks output and report; returns the output path. The overlay
// is off so the output can be held to the source pixel for pixel (the detector
// still runs: testsrc2 even has a face-like patch it scores 0.6).
std::string run_mode(const std::string& name, const std::string& sets) {
  const std::string out = test::scratch_dir() + "/" + name + ".mp4";
  const std::string report = test::scratch_dir() + "/" + name + ".json";
  const CommandResult r = vidpipe("run --input " + clip() +
                        " --set sink.path=" + out + " --report " + report +
                        " --set metrics.warmup_frames=5 --set overlay.hud=false --set overlay.boxes=false --set sink.threads=1 " +
                        sets);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(test::temporary_left(out)) << "temporary output left behind";

  const test::DecodedVideo source = test::decode_all(clip());
  const test::DecodedVideo result = test::decode_all(out);
  EXPECT_EQ(result.width, 320);
  EXPECT_EQ(result.height, 240);
  EXPECT_EQ(result.frames.size(), 60u);
  // testsrc2 moves every frame: a frame out of order or a reused buffer would
  // match its neighbour, not itself.
  for (std::size_t i = 0; i < std::min(source.frames.size(), result.frames.size()); ++i)
    EXPECT_GT(test::psnr(source.frames[i], result.frames[i]), 30.0) << name << " frame " << i;

  const nlohmann::json j = read_json(report);
  EXPECT_EQ(j.at("frames"), 60);
  EXPECT_EQ(j.at("inputs").at(0).at("frames_written"), 60);
  EXPECT_EQ(j.at("frames_measured"), 55);
  EXPECT_FALSE(j.at("bottleneck").at("stage").get<std::string>().empty());
  for (const auto& [stage, share] : j.at("stage_shares").items())
    for (const char* state : {"busy", "starved", "blocked"}) {
      EXPECT_GE(share.at(state).get<double>(), 0.0) << stage << " " << state;
      EXPECT_LE(share.at(state).get<double>(), 1.0) << stage << " " << state;
    }
  const double fps = j.at("fps"), measured = j.at("measured_s"), wall = j.at("wall_s");
  EXPECT_GT(fps, 0);
  EXPECT_NEAR(fps, 55 / measured, 1e-6 * fps);
  EXPECT_LE(measured, wall);
  for (const char* share : {"copy_wait_share", "compute_wait_share", "gpu_busy_share"}) {
    const double v = j.at(share);
    EXPECT_GE(v, 0.0) << share;
    EXPECT_LE(v, 1.0) << share;
  }
  EXPECT_GT(j.at("gpu_busy_share").get<double>(), 0.0);
  for (const char* stage : {"decode", "h2d", "compute", "d2h", "sink"}) {
    const auto& s = j.at("stages").at(stage);
    EXPECT_LE(s.at("p50_ms").get<double>(), s.at("p99_ms").get<double>()) << stage;
    EXPECT_GE(s.at("mean_ms").get<double>(), 0.0) << stage;
  }
  EXPECT_LE(j.at("latency").at("p50_ms").get<double>(), j.at("latency").at("p99_ms").get<double>());
  EXPECT_GT(j.at("h2d_GB_per_s").get<double>(), 0.0);
  EXPECT_EQ(j.at("frames_dropped"), 0);
  EXPECT_NE(r.output.find("copy-wait"), std::string::npos) << "summary line missing:\n" << r.output;
  return out;
}

TEST(PipelineE2E, CpuSyncAndAsyncGiveTheSameVideo) {
  const std::string sync = run_mode("cpu-sync", "--set device=cpu --set copy.mode=sync");
  const std::string async = run_mode("cpu-async", "--set device=cpu --set copy.mode=async --set copy.streams=3");
  const auto a = test::decode_all(sync), b = test::decode_all(async);
  ASSERT_EQ(a.frames.size(), b.frames.size());
  for (std::size_t i = 0; i < a.frames.size(); ++i) EXPECT_GT(test::psnr(a.frames[i], b.frames[i]), 45.0) << i;
}

// reader.decoders: the clip (a keyframe every 15 frames, cut at least a second apart: 2
// segments) decoded by two decoders at once makes the same video as by one.
TEST(PipelineE2E, TwoDecodersOnOneFileGiveTheSameVideo) {
  const auto one = test::decode_all(run_mode("decoders-1", "--set device=cpu"));
  const auto two = test::decode_all(run_mode("decoders-2", "--set device=cpu --set reader.decoders=2"));
  ASSERT_EQ(two.frames.size(), one.frames.size());
  for (std::size_t i = 0; i < one.frames.size(); ++i) EXPECT_TRUE(two.frames[i] == one.frames[i]) << "frame " << i;
  const nlohmann::json report = read_json(test::scratch_dir() + "/decoders-2.json");
  EXPECT_EQ(report.at("inputs").at(0).at("decoders"), 2);
}

// reader.decoders: [cpu, nvdec] without a CUDA device: one CPU decoder, said in a warning,
// and the same video.
TEST(PipelineE2E, MixedDecodersOnTheCpuPathDecodeOnTheCpu) {
  const auto one = test::decode_all(run_mode("decoders-1", "--set device=cpu"));
  const auto mixed = test::decode_all(run_mode("decoders-mixed-cpu", "--set device=cpu --set 'reader.decoders=[cpu, nvdec]'"));
  ASSERT_EQ(mixed.frames.size(), one.frames.size());
  for (std::size_t i = 0; i < one.frames.size(); ++i) EXPECT_TRUE(mixed.frames[i] == one.frames[i]) << "frame " << i;
  const nlohmann::json report = read_json(test::scratch_dir() + "/decoders-mixed-cpu.json");
  EXPECT_EQ(report.at("inputs").at(0).at("decoder"), "cpu");
  EXPECT_EQ(report.at("mode").get<std::string>().find("nvdec"), std::string::npos) << report.at("mode");
}

// The same file by the CPU decoder and NVDEC at once: the CPU decoder's video, each
// decoder's share in the report, and the mode says so.
TEST(PipelineE2E, CpuAndNvdecOnOneFileGiveTheCpuDecodersVideo) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU e2e skipped";
  const auto one = test::decode_all(run_mode("mixed-ref", "--set device=gpu"));
  const auto mixed = test::decode_all(run_mode("mixed-gpu", "--set device=gpu --set 'reader.decoders=[nvdec, cpu]'"));
  ASSERT_EQ(mixed.frames.size(), one.frames.size());
  for (std::size_t i = 0; i < one.frames.size(); ++i)
    EXPECT_GT(test::psnr(mixed.frames[i], one.frames[i]), 45.0) << "frame " << i;
  const nlohmann::json report = read_json(test::scratch_dir() + "/mixed-gpu.json");
  const nlohmann::json& input = report.at("inputs").at(0);
  EXPECT_EQ(input.at("decoder"), "cpu+nvdec");
  EXPECT_NE(report.at("mode").get<std::string>().find("cpu+nvdec"), std::string::npos) << report.at("mode");
  const nlohmann::json& split = input.at("split_decoders");
  ASSERT_EQ(split.size(), 2u) << split;
  EXPECT_EQ(split.at(0).at("kind"), "cpu");
  EXPECT_EQ(split.at(1).at("kind"), "nvdec");
  EXPECT_EQ(split.at(0).at("frames").get<std::int64_t>() + split.at(1).at("frames").get<std::int64_t>(),
            static_cast<std::int64_t>(one.frames.size()));
}

TEST(PipelineE2E, GpuModesMatchTheCpuPath) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU e2e skipped";
  const std::string cpu = run_mode("ref-cpu", "--set device=cpu --set copy.mode=sync");
  const auto reference = test::decode_all(cpu);
  for (const auto& [name, sets] : std::vector<std::pair<std::string, std::string>>{
           {"gpu-sync-pageable", "--set device=gpu --set copy.mode=sync --set copy.memory=pageable"},
           {"gpu-async-pinned", "--set device=gpu --set copy.mode=async --set copy.streams=4"},
           {"gpu-async-batch", "--set device=gpu --set copy.streams=2 --set copy.batch_size=4"},
           {"gpu-async-chunked", "--set device=gpu --set copy.streams=3 --set copy.chunk_bytes=32768"}}) {
    const auto got = test::decode_all(run_mode(name, sets));
    ASSERT_EQ(got.frames.size(), reference.frames.size()) << name;
    for (std::size_t i = 0; i < got.frames.size(); ++i)
      EXPECT_GT(test::psnr(got.frames[i], reference.frames[i]), 45.0) << name << " frame " << i;
  }
}

// 60 frames of a real video with faces: boxes and HUD land in the output, the
// report counts the faces, and pixels away from the overlay stay as decoded.
TEST(PipelineE2E, OverlayDrawsFacesAndHud) {
  const std::string clip = test::scratch_dir() + "/megamind.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -i '" + test::opencv_data("Megamind.avi") +
                              "' -an -frames:v 60 -c:v libx264 -crf 18 -pix_fmt yuv420p '" + clip + "'"), 0);
  const std::string out = test::scratch_dir() + "/megamind-out.mp4";
  const std::string report = test::scratch_dir() + "/megamind.json";
  const CommandResult r = vidpipe("run --input " + clip + " --set sink.path=" + out + " --report " + report +
                                  " --set sink.crf=12 --set metrics.warmup_frames=0");
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json j = read_json(report);
  EXPECT_GE(j.at("frames_with_faces").get<int>(), 40) << "Megamind's first 60 frames show a face in most";
  const auto source = test::decode_all(clip), result = test::decode_all(out);
  ASSERT_EQ(result.frames.size(), 60u);
  const int w = source.width;
  std::size_t hud_changed = 0, box_green = 0, far_changed = 0;
  for (std::size_t i = 0; i < 60; ++i) {
    const auto& s = source.frames[i];
    const auto& o = result.frames[i];
    for (int y = 0; y < source.height; ++y)
      for (int x = 0; x < w; ++x) {
        const int d = std::abs(int(s[y * w + x]) - o[y * w + x]);
        if (y < 20 && x < 300) hud_changed += d > 40;   // top-left: the HUD
        if (o[y * w + x] > 160 && o[y * w + x] < 185 && d > 30) ++box_green;  // box luma (173)
        if (y > source.height - 40 && x > w - 120) far_changed += d > 40;  // a corner no face reaches
      }
  }
  EXPECT_GT(hud_changed, 60u * 200) << "no HUD drawn";
  EXPECT_GT(box_green, 60u * 100) << "no face boxes drawn";
  EXPECT_LT(far_changed, 60u * 10) << "overlay spilled where it should not";
}

// Every output frame keeps its input frame's presentation time: none shifted, none lost.
TEST(PipelineE2E, OutputKeepsTheInputsFrameTimes) {
  const std::string out = test::scratch_dir() + "/times.mp4";
  const CommandResult r = vidpipe("run --set device=cpu --input " + clip() + " --set sink.path=" + out +
                                  " --set gpu.inference=false --set metrics.report=");
  ASSERT_EQ(r.code, 0) << r.output;
  const std::vector<double> in = test::frame_times(clip()), got = test::frame_times(out);
  ASSERT_EQ(got.size(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i) EXPECT_NEAR(got[i], in[i], 1e-3) << "frame " << i;
}

// sink.gop sets the keyframe spacing (ffmpeg's -g); 0 keeps two seconds of the input.
TEST(PipelineE2E, GopSetsTheOutputsKeyframeSpacing) {
  auto keyframes_with = [](const std::string& name, const std::string& sets) {
    const std::string out = test::scratch_dir() + "/" + name + ".mp4";
    const CommandResult r = vidpipe("run --set device=cpu --input " + clip() + " --set sink.path=" + out +
                                    " --set gpu.inference=false --set metrics.report= " + sets);
    EXPECT_EQ(r.code, 0) << r.output;
    return test::keyframe_indices(out);
  };
  auto widest_gap = [](const std::vector<int>& keyframes) {
    int widest = 60 - keyframes.back();
    for (std::size_t k = 1; k < keyframes.size(); ++k) widest = std::max(widest, keyframes[k] - keyframes[k - 1]);
    return widest;
  };
  const std::vector<int> every12 = keyframes_with("gop12", "--set sink.gop=12");
  ASSERT_FALSE(every12.empty());
  EXPECT_EQ(every12.front(), 0);
  EXPECT_GE(every12.size(), 5u);  // 60 frames: at 0, 12, 24, 36, 48 at least
  EXPECT_LE(widest_gap(every12), 12);
  const std::string rate = test::video_field(clip(), "r_frame_rate");  // "30/1"
  const double fps = std::stod(rate.substr(0, rate.find('/'))) / std::stod(rate.substr(rate.find('/') + 1));
  const std::vector<int> auto_gop = keyframes_with("gop-auto", "");
  EXPECT_LE(auto_gop.size(), 60 / static_cast<std::size_t>(2 * fps) + 2) << "more keyframes than 2 s apart";
  EXPECT_GT(widest_gap(auto_gop), 12);
}

// A variable-frame-rate clip (a phone's, here made with a select filter) stays VFR: the
// output's frame times are the input's, gaps included, so its duration is the input's too.
TEST(PipelineE2E, VariableFrameRateStaysVariable) {
  const std::string vfr = test::scratch_dir() + "/vfr.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=30 -frames:v 60 "
                              "-vf \"select='lt(mod(n\\,7)\\,3)+gt(n\\,40)'\" -vsync vfr -c:v libx264 -pix_fmt yuv420p " +
                              vfr),
            0);
  const std::vector<double> in = test::frame_times(vfr);
  ASSERT_GT(in.size(), 30u);
  ASSERT_GT(in[3] - in[2], 0.1) << "the clip should have gaps";
  for (const char* mode : {"copy.mode=sync", "copy.mode=async --set copy.batch_size=3"}) {
    const std::string out = test::scratch_dir() + "/vfr-out.mp4";
    const CommandResult r = vidpipe("run --set device=cpu --input " + vfr + " --set sink.path=" + out +
                                    " --set gpu.inference=false --set metrics.report= --set " + mode);
    ASSERT_EQ(r.code, 0) << r.output;
    const std::vector<double> got = test::frame_times(out);
    ASSERT_EQ(got.size(), in.size()) << mode;
    for (std::size_t i = 0; i < in.size(); ++i) EXPECT_NEAR(got[i], in[i], 1e-3) << mode << ": frame " << i;
  }
}

// Odd sizes, in 4:2:0 and in 4:4:4 (which the reader converts): 4:2:0 encoders take even
// sizes only, so the output leaves the odd last column and row out, and holds the rest.
TEST(PipelineE2E, OddSizesAreEncodedWithoutTheirLastColumnAndRow) {
  for (const char* format : {"yuv420p", "yuv444p"}) {
    const std::string odd = test::scratch_dir() + "/odd-" + format + ".mp4";
    ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=321x241:rate=25 -frames:v 10 "
                                "-c:v libx264 -qp 0 -pix_fmt " + std::string(format) + " " + odd),
              0);
    const std::string out = test::scratch_dir() + "/odd-out.mp4";
    const CommandResult r = vidpipe("run --set device=cpu --input " + odd + " --set sink.path=" + out +
                                    " --set gpu.inference=false --set overlay.hud=false --set sink.crf=0 "
                                    "--set metrics.report=");
    ASSERT_EQ(r.code, 0) << format << "\n" << r.output;
    const test::DecodedVideo got = test::decode_all(out);
    EXPECT_EQ(got.width, 320) << format;
    EXPECT_EQ(got.height, 240) << format;
    const test::DecodedVideo expected = test::ffmpeg_yuv420p(odd, 320, 240, "crop=320:240:0:0");
    ASSERT_EQ(got.frames.size(), expected.frames.size()) << format;
    for (std::size_t i = 0; i < got.frames.size(); ++i)
      EXPECT_GT(test::psnr(got.frames[i], expected.frames[i]), 38.0) << format << " frame " << i;
  }
}

// A stream that changes size mid-way (two MPEG-TS clips of different sizes, concatenated):
// the run stops with one line naming the frame and both sizes, exit 3, and the output holds
// the frames before the change, finalised and playable.
TEST(PipelineE2E, ASizeChangeStopsWithOneLineAndKeepsTheFramesBefore) {
  const std::string dir = test::scratch_dir();
  for (const char* size : {"320x240", "256x144"})
    ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=" + std::string(size) +
                                ":rate=25 -frames:v 15 -c:v libx264 -pix_fmt yuv420p -f mpegts " + dir + "/part-" +
                                size + ".ts"),
              0);
  ASSERT_EQ(test::run_command("cat " + dir + "/part-320x240.ts " + dir + "/part-256x144.ts > " + dir + "/sizes.ts"), 0);
  const std::string out = dir + "/sizes-out.mp4";
  const CommandResult r = vidpipe("run --set device=cpu --input " + dir + "/sizes.ts --set sink.path=" + out +
                                  " --set gpu.inference=false --set metrics.report=");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("frame 15 changes size from 320x240 to 256x144"), std::string::npos) << r.output;
  const test::DecodedVideo kept = test::decode_all(out);
  EXPECT_EQ(kept.width, 320);
  EXPECT_EQ(kept.frames.size(), 15u);
}

// input.preload: the first N frames decoded once and replayed in order, in every copy mode;
// the output holds frame k % N of the source at position k (testsrc2 moves every frame, so
// a wrong or repeated frame matches a neighbour, not itself).
TEST(PipelineE2E, PreloadReplaysTheFirstFramesInOrder) {
  const test::DecodedVideo source = test::decode_all(clip());
  constexpr int preload = 4, frames = 14;
  for (const char* mode : {"copy.mode=sync --set copy.memory=pageable", "copy.mode=async --set copy.memory=pinned",
                           "copy.mode=async --set copy.batch_size=3"}) {
    const std::string out = test::scratch_dir() + "/preload.mp4", report = test::scratch_dir() + "/preload.json";
    const CommandResult r = vidpipe("run --set device=cpu --input " + clip() + " --set sink.path=" + out +
                                    " --report " + report + " --set gpu.inference=false --set overlay.hud=false " +
                                    "--set input.preload=" + std::to_string(preload) + " --set input.loop=true " +
                                    "--set input.max_frames=" + std::to_string(frames) + " --set " + mode);
    ASSERT_EQ(r.code, 0) << mode << "\n" << r.output;
    const nlohmann::json j = read_json(report);
    EXPECT_EQ(j.at("preloaded"), preload) << mode;
    EXPECT_EQ(j.at("frames"), frames) << mode;
    const test::DecodedVideo got = test::decode_all(out);
    ASSERT_EQ(got.frames.size(), static_cast<std::size_t>(frames)) << mode;
    for (int k = 0; k < frames; ++k) {
      const double same = test::psnr(got.frames[k], source.frames[k % preload]);
      EXPECT_GT(same, 30.0) << mode << ": output frame " << k;
      for (int other = 0; other < preload; ++other)
        if (other != k % preload)
          EXPECT_LT(test::psnr(got.frames[k], source.frames[other]), same) << mode << ": output frame " << k;
    }
  }
}

TEST(PipelineE2E, NullSinkWritesNoVideo) {
  const std::string out = test::scratch_dir() + "/never.mp4";
  const std::string report = test::scratch_dir() + "/null.json";
  const CommandResult r = vidpipe("run --input " + clip() + " --set sink.kind=null --set sink.path=" + out + " --report " +
                        report + " --set copy.mode=sync");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(read_json(report).at("frames"), 60);
}

TEST(PipelineE2E, MaxFramesStopsEarly) {
  const std::string report = test::scratch_dir() + "/max.json";
  const CommandResult r = vidpipe("run --input " + clip() + " --set sink.kind=null --set input.max_frames=17 --report " + report);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_json(report).at("frames"), 17);
}

// Bad input: one line on stderr naming what is wrong, and the documented exit code.
TEST(PipelineE2E, ConfigErrorsExitWithCode2) {
  const std::string bad = test::scratch_dir() + "/bad.yaml";
  std::ofstream(bad) << "input:\n  uri: " << clip() << "\ncopy:\n  streams: -1\n";
  CommandResult r = vidpipe("run --config " + bad);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("bad.yaml:4:3: copy.streams: must be between 1 and 32, got -1"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;

  // A missing input is the input's fault: exit code 3, in run as in probe.
  r = vidpipe("run --input /no/such/video.mp4");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.output.find("vidpipe: input error: --input: input.uri: input file '/no/such/video.mp4' does not exist"),
            std::string::npos) << r.output;
}

TEST(PipelineE2E, UndecodableInputExitsWithCode3) {
  const std::string bogus = test::scratch_dir() + "/text.mp4";
  std::ofstream(bogus) << "plain text, no video here\n";
  const CommandResult r = vidpipe("run --input " + bogus + " --set sink.kind=null");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.output.find("input error"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(bogus), std::string::npos) << r.output;
}

TEST(PipelineE2E, ProbeDescribesTheInput) {
  const CommandResult r = vidpipe("probe --input " + clip());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("h264 (High), 320x240, yuv420p"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("CUDA devices:"), std::string::npos) << r.output;
}

// input.realtime paces a file like a camera: frames never leave faster than the
// clip's rate (a lower bound on time the pacing guarantees, not a speed claim).
TEST(PipelineE2E, RealtimePacesAFileAtItsFrameRate) {
  const std::string clip30 = test::make_clip("paced.mp4", 320, 240, 45, "-c:v libx264 -pix_fmt yuv420p -r 30");
  const std::string report = test::scratch_dir() + "/paced.json";
  const CommandResult r = vidpipe("run --input " + clip30 + " --set device=cpu --set gpu.inference=false " +
                                  "--set sink.kind=null --set input.realtime=true --set input.drop=none " +
                                  "--set metrics.warmup_frames=5 " +
                                  "--report " + report);
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json j = read_json(report);
  EXPECT_EQ(j.at("frames"), 45);
  // 40 frames after the warm-up, due 1/30 s apart: at least 39/30 s between the first and last.
  EXPECT_GE(j.at("measured_s").get<double>(), 39.0 / 30 - 0.01) << j.dump(1);
  EXPECT_LE(j.at("fps").get<double>(), 30.0 * 40 / 39 + 0.5);
  EXPECT_GE(j.at("wall_s").get<double>(), 44.0 / 30);
}

}  // namespace
}  // namespace vidpipe
