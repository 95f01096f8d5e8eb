// Bad input and interruptions: a clear one-line error naming the file and a
// non-zero exit, or frames skipped and counted; never a crash or a hang; and an
// output file that is finalised and playable whatever happened.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include <nlohmann/json.hpp>

#include "background.hpp"
#include "cli_runner.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

using namespace std::chrono_literals;

using test::read_json;
using test::vidpipe;

std::string scratch(const std::string& name) { return test::scratch_dir() + "/" + name; }

void expect_input_error(const std::string& file, const std::string& message) {
  const auto r = vidpipe("run --input " + file + " --set sink.path=" + scratch("never.mp4"));
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("vidpipe: input error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(file), std::string::npos) << "error must name the file:\n" << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(scratch("never.mp4")));
}

TEST(ReliabilityE2E, ZeroByteFile) {
  std::ofstream(scratch("empty.mp4")).close();
  expect_input_error(scratch("empty.mp4"), "is an empty file");
}

TEST(ReliabilityE2E, TextWithAVideoExtension) {
  std::ofstream(scratch("notes.mkv")) << "these are notes, not a Matroska file\n";
  expect_input_error(scratch("notes.mkv"), "cannot open input");
}

TEST(ReliabilityE2E, AbsurdDimensionsInTheHeader) {
  std::ofstream y4m(scratch("huge.y4m"), std::ios::binary);
  y4m << "YUV4MPEG2 W65535 H65535 F30:1 C420jpeg\nFRAME\n" << std::string(4096, '\x80');
  y4m.close();
  expect_input_error(scratch("huge.y4m"), "huge.y4m");
}

TEST(ReliabilityE2E, AudioOnlyFile) {
  if (test::run_command("ffmpeg -loglevel error -y -f lavfi -i sine=d=1 '" + scratch("tone.wav") + "' 2>/dev/null") != 0)
    GTEST_SKIP() << "this ffmpeg cannot make an audio file (no sine source or wav muxer)";
  expect_input_error(scratch("tone.wav"), "no video stream");
}

// A named pipe nobody writes to: run and probe wait input.timeout_ms, not forever, and say why.
TEST(ReliabilityE2E, ANamedPipeWithNoWriterEndsWithinItsTimeout) {
  const std::string fifo = scratch("lonely.fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string args : {"run --input " + fifo + " --set input.timeout_ms=400 --set sink.kind=null",
                                 "probe --input " + fifo}) {
    const auto started = std::chrono::steady_clock::now();
    const auto r = vidpipe(args);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s) << args;
    EXPECT_EQ(r.code, 3) << r.output;
    EXPECT_NE(r.output.find("'" + fifo + "' is a named pipe and nothing wrote to it"), std::string::npos) << r.output;
  }
}

// ... and one that is written to (here after the run has started) is read to its end.
TEST(ReliabilityE2E, ANamedPipeIsReadToItsEnd) {
  const std::string fifo = scratch("fed.fifo"), out = scratch("from-fifo.mp4");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string ts = test::make_clip("fifo-feed.ts", 160, 120, 20, "-c:v libx264 -pix_fmt yuv420p -f mpegts");
  test::Background writer("sleep 0.5; cat " + ts + " > " + fifo, scratch("fifo-writer.log"));
  const auto r = vidpipe("run --input " + fifo + " --set device=cpu --set gpu.inference=false --set sink.path=" + out);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(test::decode_all(out).frames.size(), 20u);
}

// Mistakes that used to end in a raw library message or exit 1: each is one line naming the
// file or key and what to do, with the documented exit code, found before the run starts.
TEST(ReliabilityE2E, MistakesGetOneLineThatSaysWhatToDo) {
  const std::string clip = test::make_clip("mistakes.mp4", 160, 120, 5, "-c:v libx264 -pix_fmt yuv420p");
  std::filesystem::remove(scratch("loop-a")), std::filesystem::remove(scratch("loop-b"));
  std::filesystem::create_symlink(scratch("loop-b"), scratch("loop-a"));
  std::filesystem::create_symlink(scratch("loop-a"), scratch("loop-b"));
  std::ofstream(scratch("twice.yaml")) << "copy:\n  streams: 2\n  streams: 4\n";
  std::ofstream(scratch("broken-trace.json")) << "{\"traceEvents\": [";
  std::ofstream(scratch("one-pixel.y4m"), std::ios::binary) << "YUV4MPEG2 W1 H1 F30:1 C420jpeg\nFRAME\n\x10\x80\x80";
  const std::string run = "run --set gpu.inference=false --set device=cpu --input ";
  struct Mistake {
    std::string args;
    int code;
    std::string says;
  };
  for (const Mistake& m : std::vector<Mistake>{
           {run + clip + " --set sink.path=" + scratch("out.webm"), 2, "a webm file cannot hold H.264 video"},
           // An FFmpeg without the gif muxer says it knows no such container: refused all the same.
           {run + clip + " --set sink.path=" + scratch("out.gif"), 2, "sink.path: '" + scratch("out.gif") + "': "},
           {run + clip + " --report " + scratch("no-such-folder/r.json"), 2, "metrics.report: cannot write"},
           {run + clip + " --trace " + scratch("no-such-folder/t.json"), 2, "metrics.trace: cannot write"},
           {"run --config " + test::scratch_dir() + " --input " + clip, 2, "is a directory; give a YAML file"},
           {"run --config " + scratch("twice.yaml") + " --input " + clip, 2, "twice.yaml:3:3: copy.streams: given twice"},
           {run + scratch("loop-a"), 3, "'" + scratch("loop-a") + "': Too many levels of symbolic links"},
           {"trace-png --trace " + scratch("broken-trace.json") + " --png " + scratch("t.png"), 3, "is not a trace"},
           {run + scratch("one-pixel.y4m") + " --set sink.path=" + scratch("one.mp4"), 3, "1x1 picture is too small"}}) {
    const auto r = vidpipe(m.args);
    EXPECT_EQ(r.code, m.code) << m.args << "\n" << r.output;
    EXPECT_NE(r.output.find(m.says), std::string::npos) << m.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("exception"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(test::temporary_left(scratch("out.webm")));
  EXPECT_FALSE(test::temporary_left(scratch("one.mp4")));
}

// A name of 255 bytes, the most a file system takes, leaves no room for ".<pid>.part": the
// temporary name is shortened, and the output still lands under the name asked for.
TEST(ReliabilityE2E, AnOutputNameOfTheLongestLengthIsWritten) {
  const std::string name = std::string(251, 'n') + ".mp4";
  const std::string clip = test::make_clip("long-name-in.mp4", 160, 120, 5, "-c:v libx264 -pix_fmt yuv420p");
  const auto r = vidpipe("run --set gpu.inference=false --set device=cpu --input " + clip + " --set sink.path=" +
                         scratch(name) + " --set metrics.report=");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(test::decode_all(scratch(name)).frames.size(), 5u);
  for (const auto& entry : std::filesystem::directory_iterator(test::scratch_dir()))
    EXPECT_NE(entry.path().extension(), ".part") << "left behind: " << entry.path();
}

// A writer that sends part of a stream and then stalls with the pipe still open: the read
// obeys input.timeout_ms too, and the frames that came are kept in a finalised output.
TEST(ReliabilityE2E, ANamedPipeWhoseWriterStallsEndsWithinItsTimeout) {
  const std::string fifo = scratch("stalled.fifo"), out = scratch("from-stalled.mp4");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string ts = test::make_clip("fifo-stall.ts", 160, 120, 30, "-c:v libx264 -pix_fmt yuv420p -f mpegts");
  test::Background writer("(cat " + ts + "; sleep 60) > " + fifo, scratch("fifo-stall-writer.log"));
  const auto started = std::chrono::steady_clock::now();
  const auto r = vidpipe("run --input " + fifo + " --set input.timeout_ms=500 --set device=cpu --set "
                         "gpu.inference=false --set sink.path=" + out);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("'" + fifo + "': no data for 0.5 s after frame"), std::string::npos) << r.output;
  EXPECT_GT(test::decode_all(out).frames.size(), 0u) << "the frames that came were lost";
}

// Packets, but no frame ever decodes (every IDR slice removed): looping it must not spin.
TEST(ReliabilityE2E, ALoopThatDecodesNothingEnds) {
  const std::string file = scratch("no-idr.mp4");
  if (test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 30 "
                        "-c:v libx264 -pix_fmt yuv420p -bsf:v filter_units=remove_types=5 " + file) != 0)
    GTEST_SKIP() << "this ffmpeg cannot drop NAL units (filter_units)";
  const auto r = vidpipe("run --input " + file + " --set input.loop=true --set sink.kind=null --set gpu.inference=false");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("a whole pass of input.loop decoded no frame"), std::string::npos) << r.output;
  EXPECT_LT(std::count(r.output.begin(), r.output.end(), '\n'), 40) << "it spun:\n" << r.output.substr(0, 2000);
}

// Every packet there but none decodes: exit 3 with one line, and no stream-less file left.
TEST(ReliabilityE2E, AFileThatDecodesToNoFrameIsAnInputError) {
  const std::string file = scratch("no-idr-once.mp4"), out = scratch("zero-frames.mp4");
  if (test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=25 -frames:v 30 "
                        "-c:v libx264 -pix_fmt yuv420p -bsf:v filter_units=remove_types=5 " + file) != 0)
    GTEST_SKIP() << "this ffmpeg cannot drop NAL units (filter_units)";
  const auto r = vidpipe("run --input " + file + " --set gpu.inference=false --set metrics.report= --set sink.path=" + out);
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("vidpipe: input error: '" + file + "': no frame could be decoded"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(out)) << "a file with no frame in it was left";
  EXPECT_FALSE(test::temporary_left(out));
}

// Paths are bytes: an input and an output named in Latin-1 (not UTF-8) still get their
// video and a valid report, the bytes shown as U+FFFD there.
TEST(ReliabilityE2E, ANonUtf8PathKeepsTheReport) {
  const std::string input = scratch("clip-\xff\xfe.mp4"), out = scratch("out-\xe9.mp4"), report = scratch("latin.json");
  std::filesystem::copy_file(test::make_clip("latin-src.mp4", 160, 120, 10, "-c:v libx264 -pix_fmt yuv420p"), input,
                             std::filesystem::copy_options::overwrite_existing);
  const auto r = vidpipe("run --input '" + input + "' --set sink.path='" + out + "' --set device=cpu "
                         "--set gpu.inference=false --report " + report);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(test::decode_all(out).frames.size(), 10u);
  const nlohmann::json j = read_json(report);
  EXPECT_EQ(j.at("frames"), 10);
  EXPECT_NE(j.at("input").at("uri").get<std::string>().find("\xef\xbf\xbd"), std::string::npos) << j.at("input");
}

TEST(ReliabilityE2E, TruncatedStreamDecodesWhatIsThere) {
  // MPEG-TS has no index at the end, so a cut file is still readable up to the cut.
  const std::string ts = test::make_clip("whole.ts", 320, 240, 60, "-c:v libx264 -pix_fmt yuv420p -f mpegts");
  const auto size = std::filesystem::file_size(ts);
  std::filesystem::copy_file(ts, scratch("cut.ts"), std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(scratch("cut.ts"), size / 2);
  // No detector: the decoder's path is what is tried (and it takes minutes a run in the ASan build).
  const auto r = vidpipe("run --input " + scratch("cut.ts") + " --set sink.path=" + scratch("cut-out.mp4") +
                         " --set gpu.inference=false --report " + scratch("cut.json"));
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = read_json(scratch("cut.json"));
  EXPECT_GT(j.at("frames").get<int>(), 10);
  EXPECT_LT(j.at("frames").get<int>(), 60);
  EXPECT_EQ(test::decode_all(scratch("cut-out.mp4")).frames.size(), j.at("frames").get<std::size_t>());
}

TEST(ReliabilityE2E, BitFlippedStreamNeverCrashes) {
  const std::string ts = test::make_clip("flip-src.ts", 320, 240, 60, "-c:v libx264 -pix_fmt yuv420p -f mpegts");
  std::string bytes = test::file_bytes(ts);
  std::mt19937 rng(7);
  for (int i = 0; i < 400; ++i) bytes[2000 + rng() % (bytes.size() - 2000)] ^= static_cast<char>(1 << (rng() % 8));
  std::ofstream(scratch("flipped.ts"), std::ios::binary) << bytes;
  const auto r = vidpipe("run --input " + scratch("flipped.ts") + " --set sink.path=" + scratch("flip-out.mp4") +
                         " --set gpu.inference=false --report " + scratch("flip.json"));
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = read_json(scratch("flip.json"));
  EXPECT_GT(j.at("frames").get<int>(), 0);
  // 400 flipped bits in the slices: the decoder must have met and counted broken data,
  // and every error shows in the log as it happens.
  const int errors = j.at("decode_errors");
  EXPECT_GT(errors, 0) << r.output;
  int logged = 0;
  for (auto at = r.output.find("decode error near frame"); at != std::string::npos;
       at = r.output.find("decode error near frame", at + 1))
    ++logged;
  EXPECT_EQ(logged, errors) << r.output;
  EXPECT_EQ(test::decode_all(scratch("flip-out.mp4")).frames.size(), j.at("frames").get<std::size_t>());
}

// SIGINT, SIGTERM and SIGHUP mid-run: the pipeline drains, the MP4 is finalised with every frame
// that reached the sink (the report's count), the report is written, exit code 130.
void interrupt_run(int signal_number) {
  const std::string clip = test::make_clip("long.mp4", 320, 240, 30, "-c:v libx264 -pix_fmt yuv420p");
  const std::string out = scratch("interrupted.mp4"), report = scratch("interrupted.json");
  const std::string log = scratch("interrupted.log");
  std::filesystem::remove(out);
  std::filesystem::remove(log);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string cmd = std::string(std::getenv("VIDPIPE_BIN") ? std::getenv("VIDPIPE_BIN") : VIDPIPE_BIN_DEFAULT) +
                            " run --config " + test::source_dir() + "/config/default.yaml --set gpu.model=" +
                            test::source_dir() + "/assets/models/tiny_face_detector --input " + clip +
                            " --set input.loop=true --set input.realtime=true --set sink.path=" + out +
                            " --report " + report + " >" + log + " 2>&1";
    execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), nullptr);
    _exit(127);
  }
  // Signal once frames have reached the sink (the live line counts them), so the signal
  // lands mid-run however fast the build is. A run that ends before then (a missing model)
  // fails the test at once rather than after the whole wait.
  const std::regex frames_out(R"(frames +[1-9][0-9]* \|)");
  int status = 0;
  bool ended_early = false;
  const bool running = test::wait_until(
      [&] {
        ended_early = waitpid(child, &status, WNOHANG) == child;
        return ended_early || std::regex_search(test::file_bytes(log), frames_out);
      },
      300s);
  ASSERT_FALSE(ended_early) << "vidpipe ended before it was signalled: " << test::file_bytes(log);
  kill(child, signal_number);
  ASSERT_TRUE(running) << "no frame reached the sink within 300 s";
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  ASSERT_TRUE(std::filesystem::exists(out)) << "output not finalised under its name";
  EXPECT_FALSE(test::temporary_left(out));
  const auto j = read_json(report);
  const auto frames = test::decode_all(out).frames.size();
  EXPECT_GT(frames, 0u);
  EXPECT_EQ(frames, j.at("frames").get<std::size_t>()) << "every frame that reached the sink is in the file";
  // Not to be read as a whole run: the report says how it ended, and the live line does not
  // claim it was done.
  EXPECT_EQ(j.at("outcome"), "interrupted");
  EXPECT_FALSE(j.at("finished").get<bool>());
}

TEST(ReliabilityE2E, CtrlCFinalisesTheOutput) { interrupt_run(SIGINT); }
TEST(ReliabilityE2E, SigtermFinalisesTheOutput) { interrupt_run(SIGTERM); }
TEST(ReliabilityE2E, SighupFinalisesTheOutput) { interrupt_run(SIGHUP); }  // the terminal closed

// A stop whose signal lands inside an FFmpeg call (the interrupt callback then cuts that
// call short with "Immediate exit requested") is a stop like any other: exit 130, the
// output finalised with the report's frames, the report saying it was interrupted and
// naming no error. VIDPIPE_INJECT_FAULT raises SIGTERM from inside the callback at the
// named moment, so the test does not depend on when a timed signal lands (issue 33).
struct StopInsideIo {
  std::string fault;  // VIDPIPE_INJECT_FAULT
  std::string mode;   // copy.mode: the async reader threads and the sync driver's inline reads
};

class InterruptInsideIo : public ::testing::TestWithParam<StopInsideIo> {};

TEST_P(InterruptInsideIo, IsAStopNotAnInputError) {
  const StopInsideIo& c = GetParam();
  // Lossless, so the file is many times FFmpeg's 32 KB read buffer: the read after frame 12
  // is a real read of the file, not one served from what the buffer already holds.
  const std::string clip = test::make_clip("wrap-lossless.mp4", 320, 240, 30, "-c:v libx264 -qp 0 -pix_fmt yuv420p");
  const std::string name = c.mode + "-" + std::to_string(std::hash<std::string>{}(c.fault));
  const std::string out = scratch("cut-" + name + ".mp4"), report = scratch("cut-" + name + ".json");
  std::filesystem::remove(out);
  std::filesystem::remove(report);
  test::ScopedEnv fault("VIDPIPE_INJECT_FAULT", c.fault);
  const auto r = vidpipe("run --input " + clip + " --set input.loop=true --set input.max_frames=300 --set copy.mode=" +
                         c.mode + " --set sink.path=" + out + " --report " + report);
  EXPECT_EQ(r.code, 130) << r.output;
  EXPECT_EQ(r.output.find("input error"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Immediate exit requested"), std::string::npos) << r.output;
  ASSERT_TRUE(std::filesystem::exists(report)) << r.output;
  const auto j = read_json(report);
  EXPECT_TRUE(j.at("interrupted").get<bool>());
  EXPECT_EQ(j.at("outcome"), "interrupted");
  EXPECT_FALSE(j.contains("error")) << j.value("error", "");
  // Stopped before the 300 frames the input would give: the stop, not the end, ended it.
  const auto frames = j.at("frames").get<std::size_t>();
  EXPECT_LT(frames, 300u);
  ASSERT_TRUE(std::filesystem::exists(out)) << "output not finalised under its name";
  EXPECT_FALSE(test::temporary_left(out));
  EXPECT_EQ(test::decode_all(out).frames.size(), frames) << "every frame that reached the sink is in the file";
}

INSTANTIATE_TEST_SUITE_P(ReliabilityE2E, InterruptInsideIo,
                         ::testing::Values(StopInsideIo{"stop-in-loop-seek", "async"},
                                           StopInsideIo{"stop-in-loop-seek", "sync"},
                                           StopInsideIo{"stop-in-read:12", "async"},
                                           StopInsideIo{"stop-in-read:12", "sync"}),
                         [](const auto& info) {
                           return info.param.mode + (info.param.fault == "stop-in-loop-seek" ? "_LoopSeek" : "_Read");
                         });

// A run its inputs ended is not interrupted.
TEST(ReliabilityE2E, ARunThatRanToItsEndIsNotInterrupted) {
  const std::string clip = test::make_clip("wrap.mp4", 320, 240, 30, "-c:v libx264 -pix_fmt yuv420p");
  const std::string report = scratch("whole.json");
  const auto r = vidpipe("run --input " + clip + " --set sink.kind=null --set gpu.inference=false --report " + report);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(read_json(report).at("interrupted").get<bool>());
  EXPECT_EQ(read_json(report).at("outcome"), "completed");
  EXPECT_TRUE(read_json(report).at("finished").get<bool>());
}

}  // namespace
}  // namespace vidpipe
