// The hostile suite's file class (docs/RELIABILITY.md): nothing a run writes may be
// anything it reads (inputs in any spelling, the config file, the model's files) or another
// of its outputs; folders, over-long names and special files are handled before anything
// runs; paths are taken literally. Each case asserts the exit code, the one-line message,
// the files left on disk and that it ended in time.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>

#include "background.hpp"
#include "cli_runner.hpp"
#include "face_assets.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct Place {
  std::string dir, in, cfg, model, manifest;
};

// A folder of the case's own: an input, a config naming it, and a copy of the model (a
// refused write must not be able to reach the repository's).
const Place& place() {
  static const Place p = [] {
    Place made;
    made.dir = test::scratch_dir() + "/hostile-files";
    fs::create_directories(made.dir);
    made.in = made.dir + "/in.mp4";
    fs::copy_file(test::make_clip("hostile.mp4", 160, 120, 12, "-c:v libx264 -pix_fmt yuv420p"), made.in,
                  fs::copy_options::overwrite_existing);
    made.model = made.dir + "/model";
    fs::create_directories(made.model);
    fs::copy(test::model_dir(), made.model, fs::copy_options::overwrite_existing | fs::copy_options::recursive);
    made.manifest = made.model + "/tiny_face_detector_model-weights_manifest.json";
    fs::create_directories(made.dir + "/films.mp4");  // a folder named like a video
    made.cfg = made.dir + "/my.yaml";
    std::ifstream defaults(test::source_dir() + "/config/default.yaml");
    std::ofstream(made.cfg) << defaults.rdbuf();
    return made;
  }();
  return p;
}

std::string fill(std::string text) {
  const Place& p = place();
  for (const auto& [token, value] : {std::pair<std::string, std::string>{"{dir}", p.dir}, {"{in}", p.in},
                                     {"{cfg}", p.cfg}, {"{model}", p.model}, {"{manifest}", p.manifest}})
    for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
      text.replace(at, token.size(), value);
  return text;
}

// A peer on a local port that accepts every connection and never reads or sends a byte:
// a server that does not answer, or a viewer that stopped reading.
class SilentPeer {
 public:
  explicit SilentPeer(const std::string& base)
      : port_file_(without_leftover(base + ".port")),
        peer_("python3 -c \"import socket\n"
              "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(16)\n"
              "open('" + port_file_ + ".tmp', 'w').write(str(s.getsockname()[1]))\n"
              "import os; os.rename('" + port_file_ + ".tmp', '" + port_file_ + "')\n"
              "held = []\n"
              "while True: held.append(s.accept())\"",
              base + ".log") {
    EXPECT_TRUE(test::wait_until([&] { return !test::file_bytes(port_file_).empty(); }, 10s)) << "no peer";
  }
  ~SilentPeer() { fs::remove(port_file_); }
  static std::string without_leftover(const std::string& path) {
    fs::remove(path);
    return path;
  }
  std::string port() const { return test::file_bytes(port_file_); }

 private:
  std::string port_file_;
  test::Background peer_;
};

// Frames too big and noisy for a socket's buffers to hide a reader that stopped, or for a
// tight memory limit to hold.
std::string noisy_clip() {
  return test::make_clip("noisy.mp4", 640, 360, 30, "-c:v libx264 -pix_fmt yuv420p -vf noise=alls=60:allf=t -crf 0");
}

struct Refused {
  const char* name;
  const char* args;     // after `vidpipe run`; the tokens of fill()
  const char* message;  // in the one line it prints
};

class RefusedBeforeRunning : public ::testing::TestWithParam<Refused> {};

// Refused with exit 2 and one line, before anything is opened: every file read is as it
// was, and no output or temporary file is left.
TEST_P(RefusedBeforeRunning, ExitTwoOneLineAndNothingTouched) {
  const Refused& c = GetParam();
  const Place& p = place();
  const std::string in_bytes = test::file_bytes(p.in), cfg_bytes = test::file_bytes(p.cfg),
                    manifest_bytes = test::file_bytes(p.manifest);
  const auto before = fs::directory_iterator(p.dir);
  const std::size_t entries = std::distance(fs::begin(before), fs::end(before));
  const std::string log = p.dir + "/refused.log";
  const auto started = std::chrono::steady_clock::now();
  const int code = test::run_command(test::vidpipe_command_line("run " + fill(c.args)) + " --set gpu.model=" +
                                     p.model + " >" + log + " 2>&1");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
  const std::string said = test::file_bytes(log);
  fs::remove(log);
  EXPECT_EQ(code, 2) << said;
  EXPECT_NE(said.find(fill(c.message)), std::string::npos) << said;
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  EXPECT_EQ(test::file_bytes(p.in), in_bytes) << "the input was touched";
  EXPECT_EQ(test::file_bytes(p.cfg), cfg_bytes) << "the config file was touched";
  EXPECT_EQ(test::file_bytes(p.manifest), manifest_bytes) << "the model was touched";
  const auto after = fs::directory_iterator(p.dir);
  EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::begin(after), fs::end(after))), entries)
      << "a file was left in " << p.dir;
}

const std::string base = "--set device=cpu --set sink.kind=null --set metrics.report= ";

INSTANTIATE_TEST_SUITE_P(
    Files, RefusedBeforeRunning,
    ::testing::Values(
        Refused{"SinkOntoInputAsFileUrl", "--input file://{in} --set device=cpu --set sink.path={in}",
                "is the input 'file://{in}'"},
        Refused{"SinkOntoInputAsFileColon", "--input file:{in} --set device=cpu --set sink.path={dir}/./in.mp4",
                "is the input 'file:{in}'"},
        Refused{"ReportOntoInputAsPercentUrl", "--input file://{dir}/%69n.mp4 --set device=cpu --set sink.kind=null "
                "--report {in}", "metrics.report: '{in}' is the input"},
        Refused{"ReportOntoSink", "--input {in} --set device=cpu --set sink.path={dir}/o.mp4 --report {dir}/o.mp4",
                "'{dir}/o.mp4' is also sink.path"},
        Refused{"TraceOntoReport", "--input {in} --set device=cpu --set sink.kind=null --report {dir}/r.json "
                "--trace {dir}/r.json", "is also metrics.report"},
        Refused{"DetectionsOntoTraceSpeltAnotherWay", "--input {in} --set device=cpu --set sink.kind=null --set "
                "metrics.report= --trace {dir}/t.json --detections {dir}/../hostile-files/t.json",
                "metrics.detections: '{dir}/../hostile-files/t.json' is also metrics.trace"},
        Refused{"TraceOntoSecondInputsVideo", "--set 'inputs=[{in}, {in}]' --set device=cpu --set sink.path={dir}/v.mp4 "
                "--set metrics.report= --trace {dir}/v-1.mp4", "is also sink.path"},
        Refused{"ReportOntoConfigFile", "--config {cfg} --input {in} --set device=cpu --set sink.kind=null --report {cfg}",
                "'{cfg}' is the config file"},
        Refused{"ReportOntoModelManifest", "--input {in} --set device=cpu --set sink.kind=null --report {manifest}",
                "is a file of the model (gpu.model)"},
        Refused{"TraceOntoModelWeights", "--input {in} --set device=cpu --set sink.kind=null --set metrics.report= "
                "--trace {model}/tiny_face_detector_model.bin", "is a file of the model"},
        Refused{"ReportIsAFolder", "--input {in} --set device=cpu --set sink.kind=null --report {model}",
                "cannot write '{model}': it is a folder"},
        Refused{"SinkIsAFolder", "--input {in} --set device=cpu --set metrics.report= --set sink.path={dir}/films.mp4",
                "cannot write '{dir}/films.mp4': it is a folder"},
        Refused{"ReportNameTooLong", "--input {in} --set device=cpu --set sink.kind=null --report {dir}/"
                "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr"
                "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr"
                "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr.json",
                "the name is longer than the file system allows"},
        Refused{"TraceInMissingFolder", "--input {in} --set device=cpu --set sink.kind=null --set metrics.report= "
                "--trace {dir}/no/such/t.json", "the folder '{dir}/no/such' does not exist"}),
    [](const auto& info) { return std::string(info.param.name); });

// Paths through --input and --report are taken as they are: '#' begins no comment, '['
// no list, and the run writes exactly the file named.
TEST(HostileFiles, PathsWithYamlCharactersAreTakenLiterally) {
  const Place& p = place();
  const std::string odd_in = p.dir + "/[1080p] movie #1.mp4", odd_report = p.dir + "/run #1: 'a'.json";
  fs::copy_file(p.in, odd_in, fs::copy_options::overwrite_existing);
  fs::remove(odd_report);
  const auto r = test::vidpipe("run --input '" + odd_in + "' --set device=cpu --set gpu.inference=false "
                               "--set sink.kind=null --report \"" + odd_report + "\"");
  EXPECT_EQ(r.code, 0) << r.output;
  ASSERT_TRUE(fs::exists(odd_report)) << r.output;
  EXPECT_EQ(test::read_json(odd_report).at("frames"), 12);
  EXPECT_FALSE(fs::exists(p.dir + "/run")) << "the name was cut at '#'";
  fs::remove(odd_in);
  fs::remove(odd_report);
}

// A FIFO named as the report or the video is written into, never renamed over or removed:
// what reads it gets the whole report or stream, and the FIFO is still a FIFO afterwards.
TEST(HostileFiles, SpecialFilesAreWrittenInPlaceNotReplaced) {
  const Place& p = place();
  const std::string report_fifo = p.dir + "/report.fifo", video_fifo = p.dir + "/video.ts";
  const std::string got_report = p.dir + "/got.json", got_video = p.dir + "/got.ts";
  for (const std::string& f : {report_fifo, video_fifo}) {
    fs::remove(f);
    ASSERT_EQ(::mkfifo(f.c_str(), 0600), 0);
  }
  test::Background report_reader("cat " + report_fifo + " > " + got_report, p.dir + "/r.log");
  test::Background video_reader("cat " + video_fifo + " > " + got_video, p.dir + "/v.log");
  const auto r = test::vidpipe("run --input " + p.in + " --set device=cpu --set gpu.inference=false "
                               "--set sink.path=" + video_fifo + " --report " + report_fifo);
  EXPECT_EQ(r.code, 0) << r.output;
  ASSERT_TRUE(test::wait_until([&] { return test::file_bytes(got_report).find("\"frames\"") != std::string::npos; }, 20s));
  EXPECT_EQ(nlohmann::json::parse(test::file_bytes(got_report)).at("frames"), 12);
  EXPECT_TRUE(test::wait_until([&] { return test::decode_all(got_video).frames.size() == 12; }, 20s));
  for (const std::string& f : {report_fifo, video_fifo}) {
    EXPECT_TRUE(fs::is_fifo(f)) << f << " was replaced";
    EXPECT_FALSE(test::temporary_left(f));
    fs::remove(f);
  }
}

// A full disk under the trace or the detections (/dev/full fails every write with ENOSPC):
// exit 3, one line naming the file and the reason, and the report is still written.
TEST(HostileFiles, AFullDiskUnderTraceOrDetectionsNamesItAndKeepsTheReport) {
  const Place& p = place();
  for (const std::string option : {"--trace", "--detections"}) {
    const std::string report = p.dir + "/full.json";
    fs::remove(report);
    const auto r = test::vidpipe("run --input " + p.in + " --set device=cpu --set sink.kind=null --report " + report +
                                 " " + option + " /dev/full");
    EXPECT_EQ(r.code, 3) << r.output;
    EXPECT_NE(r.output.find("cannot write "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("'/dev/full': No space left on device"), std::string::npos) << r.output;
    ASSERT_TRUE(fs::exists(report)) << option << ": the report was lost\n" << r.output;
    EXPECT_NE(test::read_json(report).value("error", "").find("/dev/full"), std::string::npos);
    EXPECT_EQ(test::read_json(report).value("outcome", ""), "failed");
    EXPECT_TRUE(fs::exists("/dev/full") && !fs::is_regular_file("/dev/full"));
  }
}

// `cat clip.ts | vidpipe run --input /dev/stdin`: a pipe that ends, not a camera: every frame
// is kept (none dropped), and its end is the input's end, not a lost source to reconnect.
TEST(HostileFiles, StdinFedByAPipeIsReadWholeLikeAFile) {
  const Place& p = place();
  const std::string ts = test::make_clip("stdin.ts", 160, 120, 30, "-c:v libx264 -pix_fmt yuv420p -f mpegts");
  const std::string out = p.dir + "/from-stdin.mp4", report = p.dir + "/stdin.json", log = p.dir + "/stdin.log";
  const int code = test::run_command("cat " + ts + " | " +
                                     test::vidpipe_command_line("run --input /dev/stdin --set device=cpu --set "
                                                                "gpu.inference=false --set sink.path=" + out +
                                                                " --report " + report) + " >" + log + " 2>&1");
  const std::string said = test::file_bytes(log);
  EXPECT_EQ(code, 0) << said;
  EXPECT_EQ(said.find("reconnect"), std::string::npos) << said;
  const nlohmann::json j = test::read_json(report);
  EXPECT_EQ(j.at("frames"), 30) << said;
  EXPECT_EQ(j.at("frames_dropped"), 0) << said;
  EXPECT_EQ(test::decode_all(out).frames.size(), 30u);
  fs::remove(out);
}

// The output's folder deleted while the run writes into it: exit 3 naming the file, and the
// report says 0 frames written, which is what is on disk (it said 90).
TEST(HostileFiles, AnOutputFolderDeletedMidRunIsNoFramesWritten) {
  const Place& p = place();
  const std::string gone = p.dir + "/gone", report = p.dir + "/gone.json", rc = p.dir + "/gone.rc";
  fs::create_directories(gone);
  fs::remove(rc);
  test::Background run(test::vidpipe_command_line("run --input " + p.in + " --set input.loop=true --set "
                                                  "input.realtime=true --set input.max_frames=60 --set device=cpu "
                                                  "--set gpu.inference=false --set sink.path=" + gone +
                                                  "/out.mp4 --report " + report) + "; echo $? > " + rc,
                       p.dir + "/gone.log");
  ASSERT_TRUE(test::wait_until([&] { return !fs::is_empty(gone); }, 20s)) << "nothing was written";
  fs::remove_all(gone);
  ASSERT_TRUE(test::wait_until([&] { return !test::file_bytes(rc).empty(); }, 30s));
  EXPECT_EQ(test::file_bytes(rc), "3\n") << test::file_bytes(p.dir + "/gone.log");
  EXPECT_NE(test::file_bytes(p.dir + "/gone.log").find("cannot "), std::string::npos);
  EXPECT_EQ(test::read_json(report).at("inputs").at(0).at("frames_written"), 0);
  fs::remove(report);
}

// A run that ends before its first frame leaves its own report, not the last run's:
// `started: false` with the error, and --json prints the same on stdout.
TEST(HostileMisleading, ARunThatNeverStartedReplacesTheLastReport) {
  const Place& p = place();
  const std::string report = p.dir + "/stale.json";
  std::ofstream(report) << R"({"finished": true, "frames": 600, "fps": 250.0})";
  const std::string missing = p.dir + "/gone.mp4";
  const std::string out = p.dir + "/stale.out";
  const int code = test::run_command(test::vidpipe_command_line("run --input " + missing + " --set device=cpu "
                                                                "--set sink.kind=null --json --report " + report) +
                                     " >" + out + " 2>/dev/null");
  EXPECT_EQ(code, 3);
  const nlohmann::json written = test::read_json(report), printed = nlohmann::json::parse(test::file_bytes(out));
  EXPECT_EQ(written.value("started", true), false) << written.dump();
  EXPECT_EQ(written.value("outcome", ""), "not_started") << written.dump();
  EXPECT_FALSE(written.value("finished", true)) << written.dump();
  EXPECT_FALSE(written.contains("frames")) << "the last run's figures are still there";
  EXPECT_NE(written.value("error", "").find(missing), std::string::npos);
  EXPECT_EQ(printed, written);
  fs::remove(report);
  fs::remove(out);
}

// A server that accepts connections and never sends a byte: every open and read of the
// run and of probe has a deadline (input.timeout_ms), so each ends in time with exit 3.
TEST(HostileHangs, ASilentServerEndsProbeAndRunInTime) {
  const Place& p = place();
  const SilentPeer server(p.dir + "/silent");
  const std::string url = "http://127.0.0.1:" + server.port() + "/clip.mp4";
  for (const std::string command : {"probe --input " + url,
                                    "run --input " + url + " --set device=cpu --set input.timeout_ms=1000 "
                                    "--set sink.kind=null --set metrics.report="}) {
    const auto started = std::chrono::steady_clock::now();
    const auto r = test::vidpipe(command);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 15s) << command;
    EXPECT_EQ(r.code, 3) << command << "\n" << r.output;
    EXPECT_NE(r.output.find("127.0.0.1"), std::string::npos) << r.output;
  }
}

// A TCP viewer that connects and never reads: once the socket's buffers are full the
// stream sink's write gives up after its deadline, and the run ends (exit 3) naming it.
TEST(HostileHangs, AViewerThatStopsReadingEndsTheStreamInTime) {
  const Place& p = place();
  const SilentPeer viewer(p.dir + "/viewer");
  const std::string noisy = noisy_clip();
  const auto started = std::chrono::steady_clock::now();
  const auto r = test::vidpipe("run --input " + noisy + " --set input.loop=true --set input.max_frames=100000 "
                               "--set device=cpu --set gpu.inference=false --set sink.kind=stream --set sink.crf=0 "
                               "--set sink.path=tcp://127.0.0.1:" + viewer.port() +
                               " --set metrics.report=");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 60s);
  EXPECT_EQ(r.code, 3) << r.output.substr(r.output.size() > 2000 ? r.output.size() - 2000 : 0);
  EXPECT_NE(r.output.find("tcp://127.0.0.1:"), std::string::npos);
}

// -c naming a FIFO (no writer: the open would block for ever) is refused at once.
TEST(HostileHangs, AConfigThatIsAPipeIsRefusedAtOnce) {
  const Place& p = place();
  const std::string fifo = p.dir + "/config.fifo";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto started = std::chrono::steady_clock::now();
  const auto r = test::vidpipe("run --config " + fifo + " --input " + p.in);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("config file '" + fifo + "' is not a regular file"), std::string::npos) << r.output;
  fs::remove(fifo);
}

// sink.kind: display with no display server: one line and exit 2 (Qt aborted: exit 134).
TEST(HostileCrashes, ADisplayWithNoServerIsOneLine) {
  const Place& p = place();
  const std::string log = p.dir + "/nodisplay.log";
  const int code = test::run_command("env -u DISPLAY -u WAYLAND_DISPLAY " +
                                     test::vidpipe_command_line("run --input " + p.in + " --set device=cpu "
                                                                "--set sink.kind=display --set metrics.report=") + " >" + log + " 2>&1");
  const std::string said = test::file_bytes(log);
  EXPECT_EQ(code, 2) << said;
  EXPECT_NE(said.find("sink.kind"), std::string::npos) << said;
  EXPECT_NE(said.find("display"), std::string::npos) << said;
}

// Under a memory limit (ulimit -v) every run ends cleanly: 0, or 3 with one line (out of
// host memory or resources, an encoder out of memory), never std::terminate or a SIGSEGV
// (an encoder flushed after it failed crashed in x264), and no half-written video under
// its name. Not in the ASan pass: ASan reserves terabytes of address space.
TEST(MemoryLimits, EveryLimitEndsCleanly) {
  const Place& p = place();
  const std::string noisy = noisy_clip();
  const std::string out = p.dir + "/limited.mp4", log = p.dir + "/limited.log";
  int refused = 0;
  // Also with 16 decoder and encoder threads, as on a 16-core machine: there FFmpeg's frame
  // threads logged while out of memory, and the log callback's bad_alloc was std::terminate.
  for (const std::string threads : {"", " --set reader.threads=16 --set sink.threads=16"})
  for (int mib = 400; mib <= 800; mib += 50) {
    fs::remove(out);
    const int code = test::run_command("bash -c 'ulimit -v " + std::to_string(mib * 1024) + "; " +
                                       test::vidpipe_command_line("run --input " + noisy + " --set device=cpu "
                                                                  "--set sink.path=" + out + " --set metrics.report=" +
                                                                  threads) +
                                       "' >" + log + " 2>&1");
    const std::string said = test::file_bytes(log);
    if (said.find("error while loading shared libraries") != std::string::npos) continue;  // below the binary itself
    EXPECT_TRUE(code == 0 || code == 3) << mib << " MiB: exit " << code << "\n" << said;
    EXPECT_EQ(said.find("terminate"), std::string::npos) << mib << " MiB\n" << said;
    if (code == 3) {
      ++refused;
      EXPECT_NE(said.rfind("vidpipe: "), std::string::npos) << said;
    }
    if (fs::exists(out)) EXPECT_GT(test::decode_all(out).frames.size(), 0u) << mib << " MiB: a broken file was left";
    EXPECT_FALSE(test::temporary_left(out)) << mib << " MiB";
  }
  EXPECT_GT(refused, 0) << "no limit was tight enough to test anything";
}

// A camera's password never reaches the logs, the messages or the report: every retry
// warning, the final error and the report's uri fields show the user and "***".
TEST(HostileSecrets, ACameraPasswordIsInNoLineAndNoReport) {
  const Place& p = place();
  const std::string report = p.dir + "/secret.json";
  fs::remove(report);
  // Port 9 (discard) refuses: every attempt fails and is logged.
  const std::string camera = "rtsp://admin:s3cr3t-pw@127.0.0.1:9/live?token=t0ken-value&profile=1";
  const auto r = test::vidpipe("run --input '" + camera + "' --set device=cpu --set gpu.inference=false --set "
                               "input.reconnect.attempts=2 --set input.reconnect.backoff_ms=10 --set input.timeout_ms=500 "
                               "--set sink.kind=null --report " + report);
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_EQ(r.output.find("s3cr3t-pw"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("t0ken-value"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rtsp://admin:***@127.0.0.1:9/live?token=***&profile=1"), std::string::npos) << r.output;
  if (fs::exists(report)) {
    const std::string written = test::file_bytes(report);
    EXPECT_EQ(written.find("s3cr3t-pw"), std::string::npos) << written;
    EXPECT_EQ(written.find("t0ken-value"), std::string::npos) << written;
  }
}

}  // namespace
}  // namespace vidpipe
