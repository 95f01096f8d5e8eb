// Several inputs in one process: each input's frames come out in its own file, in
// order and unchanged, and the report has a line per input.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "background.hpp"
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

// Twelve inputs, batches of 8 that cannot hold one frame of each: the figures add up by
// value. fps is the measured frames over the measured window, the window lies inside the
// run, the run inside the process's own wall clock, and every input's frames are out.
TEST(MultiInputE2E, ManyInputsFiguresMatchTheFramesAndTheWallClock) {
  constexpr int inputs = 12, frames_each = 40;
  const std::string clip = test::make_clip("many.mp4", 160, 120, frames_each, "-c:v libx264 -pix_fmt yuv420p -g 10");
  std::string list;
  for (int i = 0; i < inputs; ++i) list += (i ? ", " : "") + clip;
  const std::string report = test::scratch_dir() + "/many.json";
  const auto started = std::chrono::steady_clock::now();
  const auto r = vidpipe("run --set 'inputs=[" + list + "]' --set device=cpu --set gpu.inference=false "
                         "--set sink.kind=null --set copy.batch_size=8 --set metrics.warmup_frames=40 --report " + report);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json j = read_json(report);
  EXPECT_EQ(j.at("frames"), inputs * frames_each);
  const double fps = j.at("fps"), measured_s = j.at("measured_s"), wall_s = j.at("wall_s");
  const int measured = j.at("frames_measured");
  EXPECT_EQ(measured, inputs * frames_each - 40) << "every frame after the warm-up is measured";
  EXPECT_NEAR(fps, measured / measured_s, 1e-6 * fps);
  EXPECT_LE(measured_s, wall_s);
  EXPECT_LE(wall_s, elapsed) << "the report's run is inside the process's own wall clock";
  int decoded = 0;
  for (const auto& input : j.at("inputs")) {
    decoded += input.at("frames_decoded").get<int>();
    EXPECT_EQ(input.at("frames_written"), frames_each);
    EXPECT_GE(input.at("startup").at("open_s").get<double>(), 0.0);
    EXPECT_GE(input.at("decoder_threads").get<int>(), 1);
  }
  EXPECT_EQ(decoded, inputs * frames_each);
  // The summary puts the window and the whole run beside fps.
  EXPECT_NE(r.output.find(fmt::format("fps is over the {:.2f} s after the warm-up; over the whole {:.2f} s run",
                                      measured_s, wall_s)), std::string::npos) << r.output;
}

// input.stagger through the whole pipeline: five copies of one looping clip, input k
// starting at the file's frame 6k; each output holds its input's frames from there on,
// wrapping at the file's end, and not the file from its start, and its times start at 0 as
// a camera's do from when it is switched on, a frame apart throughout.
TEST(MultiInputE2E, StaggeredCopiesStartEvenlyApartInTheFile) {
  constexpr int inputs = 5, frames = 30;
  const std::string clip = test::make_clip("stagger-copies.mp4", 160, 96, frames, "-c:v libx264 -pix_fmt yuv420p -g 10");
  const std::string dir = test::scratch_dir();
  std::string list;
  for (int i = 0; i < inputs; ++i) list += (i ? ", " : "") + clip;
  const auto r = vidpipe("run --set 'inputs=[" + list + "]' --set device=cpu --set gpu.inference=false "
                         "--set overlay.hud=false --set input.loop=true --set input.stagger=true "
                         "--set input.max_frames=" + std::to_string(frames) + " --set sink.path=" + dir + "/stagger.mp4");
  ASSERT_EQ(r.code, 0) << r.output;
  const test::DecodedVideo source = test::decode_all(clip);
  for (int k = 0; k < inputs; ++k) {
    const test::DecodedVideo out = test::decode_all(dir + "/stagger-" + std::to_string(k) + ".mp4");
    ASSERT_EQ(out.frames.size(), static_cast<std::size_t>(frames)) << "input " << k;
    for (int i = 0; i < frames; ++i)
      EXPECT_GT(test::psnr(source.frames[(frames / inputs * k + i) % frames], out.frames[i]), 30.0)
          << "input " << k << " frame " << i;
    if (k > 0) EXPECT_LT(test::psnr(source.frames[0], out.frames[0]), 30.0) << "input " << k << " started at the file's start";
    const std::vector<double> times = test::frame_times(dir + "/stagger-" + std::to_string(k) + ".mp4");
    ASSERT_EQ(times.size(), static_cast<std::size_t>(frames)) << "input " << k;
    for (int i = 0; i < frames; ++i) EXPECT_NEAR(times[i], i / 30.0, 1e-3) << "input " << k << " frame " << i;
  }
}

// One input of three stalls (a named pipe whose writer stops after a few frames): it ends
// alone on its error, its output finalised; the other two deliver every frame, and the run
// then ends with that input's error (exit code 3).
TEST(MultiInputE2E, AnInputThatStallsEndsAloneAndTheOthersGoOn) {
  const std::string a = test::make_clip("multi-a.mp4", 320, 240, 48, "-c:v libx264 -pix_fmt yuv420p -g 12");
  const std::string ts = test::make_clip("stall-feed.ts", 160, 120, 20, "-c:v libx264 -pix_fmt yuv420p -f mpegts");
  const std::string dir = test::scratch_dir(), fifo = dir + "/stalls.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // The writer sends the whole clip, then holds the pipe open and sends nothing more.
  test::Background writer("exec 3>" + fifo + "; cat " + ts + " >&3; sleep 30", dir + "/stall-writer.log");
  const std::string report = dir + "/stalls.json";
  const auto r = vidpipe("run --set 'inputs=[" + a + ", " + fifo + ", " + a + "]' --set device=cpu "
                         "--set gpu.inference=false --set input.timeout_ms=1500 --set copy.batch_size=2 "
                         "--set sink.path=" + dir + "/stalls.mp4 --report " + report);
  writer.kill_now();
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("vidpipe: input error: '" + fifo + "': no data for 1.5 s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the other 2 go on"), std::string::npos) << r.output;
  const nlohmann::json j = read_json(report);
  EXPECT_NE(j.at("error").get<std::string>().find(fifo), std::string::npos);
  for (int i : {0, 2}) {
    EXPECT_EQ(j.at("inputs")[i].at("frames_written"), 48) << "input " << i;
    EXPECT_EQ(test::decode_all(dir + "/stalls-" + std::to_string(i) + ".mp4").frames.size(), 48u) << "input " << i;
  }
  // The stalled input's frames before the stall are in its finalised output.
  const int written = j.at("inputs")[1].at("frames_written");
  EXPECT_GT(written, 0);
  EXPECT_EQ(test::decode_all(dir + "/stalls-1.mp4").frames.size(), static_cast<std::size_t>(written));
}

// The stalled input's output is finalised when that input ends, not when the run does: the
// other input (a pipe too) sends its second half only once the first output is on disk
// under its name, and the frames it then held are what the report says was written.
TEST(MultiInputE2E, AnInputThatFailsIsFinalisedWhileTheOthersGoOn) {
  const std::string dir = test::scratch_dir(), stalls = dir + "/fails-first.fifo", later = dir + "/goes-on.fifo";
  const std::string out = dir + "/fails.mp4", first_out = dir + "/fails-0.mp4", seen = dir + "/fails-0.frames";
  const std::string short_ts = test::make_clip("fail-feed.ts", 160, 120, 20, "-c:v libx264 -pix_fmt yuv420p -f mpegts");
  const std::string long_ts = test::make_clip("goes-on.ts", 160, 120, 60, "-c:v libx264 -pix_fmt yuv420p -g 10 -f mpegts");
  for (const std::string& fifo : {stalls, later}) {
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  }
  std::filesystem::remove(first_out);
  std::filesystem::remove(seen);
  const std::size_t half = std::filesystem::file_size(long_ts) / 188 / 2 * 188;  // whole TS packets
  test::Background stalling("exec 3>" + stalls + "; cat " + short_ts + " >&3; sleep 30", dir + "/fails-w1.log");
  test::Background goes_on("exec 3>" + later + "; head -c " + std::to_string(half) + " " + long_ts + " >&3; "
                           "for i in $(seq 200); do [ -f " + first_out + " ] && break; sleep 0.1; done; "
                           "ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames "
                           "-of csv=p=0 " + first_out + " > " + seen + "; tail -c +" + std::to_string(half + 1) +
                           " " + long_ts + " >&3", dir + "/fails-w2.log");
  const std::string report = dir + "/fails.json";
  const auto r = vidpipe("run --set 'inputs=[" + stalls + ", " + later + "]' --set device=cpu --set "
                         "gpu.inference=false --set input.timeout_ms=1000 --set copy.batch_size=2 --set sink.path=" +
                         out + " --report " + report);
  stalling.kill_now();
  goes_on.kill_now();
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("input 0 ('" + stalls + "') ended: "), std::string::npos) << r.output;
  const nlohmann::json j = read_json(report);
  const int first_written = j.at("inputs")[0].at("frames_written");
  EXPECT_GT(first_written, 0);
  EXPECT_EQ(test::decode_all(first_out).frames.size(), static_cast<std::size_t>(first_written));
  EXPECT_EQ(j.at("inputs")[1].at("frames_written"), 60) << "the second half came only after the first output was on disk";
  std::ifstream seen_frames(seen);
  int frames_seen = -1;
  seen_frames >> frames_seen;
  EXPECT_EQ(frames_seen, first_written) << "the first output, read while the run went on, was not whole";
}

TEST(MultiInputE2E, AMissingInputNamesIt) {
  const std::string a = test::make_clip("multi-a.mp4", 320, 240, 48, "-c:v libx264 -pix_fmt yuv420p -g 12");
  const auto r = vidpipe("run --set 'inputs=[" + a + ", /no/such/second.mp4]' --set device=cpu");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("inputs: input file '/no/such/second.mp4' does not exist"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace vidpipe
