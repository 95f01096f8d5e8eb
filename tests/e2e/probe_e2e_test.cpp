// `vidpipe probe` as ffprobe's users read it: every stream (audio too), the duration, the
// frame count or "unknown" (an MKV has none; never "0 frames"), R'G'B' said as such, the
// rotation tag, --json with the same figures, and the input given positionally as ffprobe
// and ffmpeg take it (probe and run).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <thread>

#include "cli_runner.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

// One second of 320x240 at 30 fps (30 frames), a 48 kHz mono AAC tone tagged English, and
// a display rotation of 90 degrees.
std::string clip_with_audio() {
  const std::string plain = test::scratch_dir() + "/probe-av-plain.mp4", path = test::scratch_dir() + "/probe-av.mp4";
  EXPECT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=30 -f lavfi -i "
                              "sine=frequency=440:sample_rate=48000 -frames:v 30 -t 1 -c:v libx264 -pix_fmt yuv420p "
                              "-c:a aac -metadata:s:a:0 language=eng " + plain),
            0);
  // The rotation tag is kept by a stream copy (an encode drops it in FFmpeg 5.1).
  EXPECT_EQ(test::run_command("ffmpeg -loglevel error -y -i " + plain + " -c copy -metadata:s:v:0 rotate=90 " + path), 0);
  return path;
}

nlohmann::json probe_json(const std::string& input) {
  const test::CommandResult r = test::vidpipe("probe --json " + input);
  EXPECT_EQ(r.code, 0) << r.output;
  return nlohmann::json::parse(r.output.substr(r.output.find('{')));
}

TEST(ProbeE2E, EveryStreamWithItsFigures) {
  const nlohmann::json p = probe_json(clip_with_audio());
  ASSERT_EQ(p["streams"].size(), 2u) << p.dump(2);
  const nlohmann::json& video = p["streams"][0];
  EXPECT_EQ(video["type"], "video");
  EXPECT_EQ(video["codec"], "h264");
  EXPECT_EQ(video["width"], 320);
  EXPECT_EQ(video["height"], 240);
  EXPECT_EQ(video["frames"], 30);
  EXPECT_EQ(video["rotation"], 90);
  EXPECT_EQ(video["colour"]["model"], "Y'CbCr");
  const nlohmann::json& audio = p["streams"][1];
  EXPECT_EQ(audio["type"], "audio");
  EXPECT_EQ(audio["codec"], "aac");
  EXPECT_EQ(audio["sample_rate"], 48000);
  EXPECT_EQ(audio["channels"], 1);
  EXPECT_EQ(audio["language"], "eng");
  EXPECT_NEAR(p["format"]["duration_s"].get<double>(), 1.0, 0.05);
  EXPECT_EQ(p["video_stream"], 0);
  // rotation 90 (counter-clockwise, as ffprobe says it): vidpipe turns it three quarters clockwise.
  EXPECT_EQ(p["reader"]["quarter_turns"], 3);
  EXPECT_TRUE(p["cuda_devices"].is_array());
}

TEST(ProbeE2E, TheTextSaysWhatTheJsonSays) {
  const std::string clip = clip_with_audio();
  const test::CommandResult r = test::vidpipe("probe " + clip);  // positional, as ffprobe takes it
  ASSERT_EQ(r.code, 0) << r.output;
  for (const std::string said : {"stream #0 video (the one vidpipe reads): h264 (High), 320x240, yuv420p, 30 fps, 30 frames",
                                 "rotation 90", "turned upright (270 degrees clockwise)", "stream #1 audio: aac (LC), 48000 Hz, mono, fltp", "[eng]",
                                 "duration 00:00:01.0", "CUDA devices:"})
    EXPECT_NE(r.output.find(said), std::string::npos) << said << "\n" << r.output;
  EXPECT_EQ(test::vidpipe("probe --input " + clip).output, r.output);
}

// Matroska keeps no frame count: "unknown", with the estimate from duration and rate
// beside it, never "0 frames".
TEST(ProbeE2E, AContainerWithoutACountSaysUnknown) {
  const std::string mkv = test::make_clip("probe-count.mkv", 160, 120, 45, "-c:v libx264 -pix_fmt yuv420p");
  const nlohmann::json p = probe_json(mkv);
  EXPECT_TRUE(p["streams"][0]["frames"].is_null()) << p.dump(2);
  EXPECT_EQ(p["streams"][0]["frames_estimated"], 45);
  const test::CommandResult r = test::vidpipe("probe " + mkv);
  EXPECT_NE(r.output.find("frames unknown (the container does not say; about 45"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("0 frames"), std::string::npos) << r.output;
}

// An R'G'B' source (libx264rgb, or FFV1 where that encoder is missing) has no Y'CbCr
// matrix: probe says R'G'B', not "bt601".
TEST(ProbeE2E, RgbIsSaidAsSuch) {
  std::string rgb = test::make_clip("probe-rgb.mkv", 160, 120, 5, "-c:v libx264rgb -pix_fmt bgr24");
  if (rgb.empty()) rgb = test::make_clip("probe-rgb-ffv1.mkv", 160, 120, 5, "-c:v ffv1 -pix_fmt bgr0");
  if (rgb.empty()) GTEST_SKIP() << "this machine's ffmpeg makes no R'G'B' clip (neither libx264rgb nor ffv1)";
  const nlohmann::json p = probe_json(rgb);
  EXPECT_EQ(p["streams"][0]["colour"]["model"], "R'G'B'") << p.dump(2);
  EXPECT_NE(test::vidpipe("probe " + rgb).output.find("R'G'B' (no matrix)"), std::string::npos);
}

// An audio-only file is probed (exit 0, its stream listed) and says vidpipe has nothing to run.
TEST(ProbeE2E, AnAudioOnlyFileIsListedAndSaysSo) {
  const std::string path = test::scratch_dir() + "/probe-audio.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i sine=frequency=440:sample_rate=44100 -t 1 "
                              "-c:a aac " + path), 0);
  const test::CommandResult r = test::vidpipe("probe " + path);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("stream #0 audio: aac"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no video stream"), std::string::npos) << r.output;
}

// `vidpipe run clip.mp4`, as ffmpeg's users type it.
TEST(ProbeE2E, RunTakesTheInputPositionally) {
  const std::string clip = test::make_clip("probe-run.mp4", 160, 120, 8, "-c:v libx264 -pix_fmt yuv420p");
  const std::string report = test::scratch_dir() + "/positional.json";
  // In a zone nine hours east: the report's time is UTC all the same.
  const std::time_t before = std::time(nullptr);
  ASSERT_EQ(test::run_command("TZ=JST-9 " + test::vidpipe_command_line("run " + clip + " --set device=cpu --set "
                                                                       "gpu.inference=false --set sink.kind=null "
                                                                       "--report " + report) + " > /dev/null 2>&1"),
            0);
  EXPECT_EQ(test::read_json(report)["frames"], 8);
  EXPECT_EQ(test::read_json(report)["config"]["input"]["uri"], clip);
  // When and where it ran, so two reports side by side say whether they are comparable.
  const nlohmann::json environment = test::read_json(report)["environment"];
  std::tm started{};
  ASSERT_TRUE(strptime(environment.value("started_at", "").c_str(), "%Y-%m-%dT%H:%M:%SZ", &started)) << environment.dump();
  EXPECT_LE(std::abs(std::difftime(timegm(&started), before)), 120.0) << "not UTC: " << environment.dump();
  EXPECT_EQ(environment["cpus"].get<unsigned>(), std::thread::hardware_concurrency());
  EXPECT_NE(environment.value("ffmpeg", "").find('.'), std::string::npos) << environment.dump();
}

}  // namespace
}  // namespace vidpipe
