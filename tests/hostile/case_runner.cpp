// Runs one hostile case: a fresh folder (an input, a config, a copy of the model), the
// case's setup, vidpipe as a user would start it, then every check the case asks for plus
// the ones every case gets: no sanitizer report, no crash, ended in time, every file that
// was there before byte for byte as it was, and no file left that the case did not expect
// (no `.part`, no stray report).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "background.hpp"
#include "cli_runner.hpp"
#include "face_assets.hpp"
#include "memory/cuda_raii.hpp"
#include "hostile_case.hpp"
#include "test_media.hpp"

namespace vidpipe::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Shell helpers the setup lines may use: clip NAME WxH FRAMES [ffmpeg output args].
const char* const setup_prelude =
    "clip() { out=$1; size=$2; n=$3; shift 3; ffmpeg -nostdin -loglevel error -y -f lavfi "
    "-i testsrc2=size=$size:rate=30 -frames:v $n \"$@\" \"$out\"; }; ";

struct Place {
  std::string dir, side;  // the case's folder, and one beside it for logs and peers' files
};

std::string replace_all(std::string text, const std::string& token, const std::string& value) {
  for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
    text.replace(at, token.size(), value);
  return text;
}

std::string vidpipe_binary() {
  const char* env = std::getenv("VIDPIPE_BIN");
  return env ? env : VIDPIPE_BIN_DEFAULT;
}

std::string expand(std::string text, const Place& p) {
  text = replace_all(text, "{vidpipe}", vidpipe_binary());
  text = replace_all(text, "{dir}", p.dir);
  text = replace_all(text, "{side}", p.side);
  text = replace_all(text, "{in}", p.dir + "/in.mp4");
  text = replace_all(text, "{cfg}", p.dir + "/my.yaml");
  text = replace_all(text, "{model}", p.dir + "/model");
  text = replace_all(text, "{src}", source_dir());
  if (text.find("{port}") != std::string::npos) text = replace_all(text, "{port}", file_bytes(p.side + "/port"));
  return text;
}

void place_fixtures(const Place& p) {
  fs::remove_all(p.dir);
  fs::remove_all(p.side);
  fs::create_directories(p.dir);
  fs::create_directories(p.side);
  fs::copy_file(make_clip("hostile-in.mp4", 160, 120, 12, "-c:v libx264 -pix_fmt yuv420p"), p.dir + "/in.mp4");
  fs::copy(model_dir(), p.dir + "/model", fs::copy_options::recursive);
  fs::copy_file(source_dir() + "/config/default.yaml", p.dir + "/my.yaml");
}

// What a user would type, with the case's folder's config and model and the CPU path
// (the suite is about the program's edges, not the GPU); the case's own --set come later
// and win.
std::string command_line(const HostileCase& c, const Place& p) {
  const std::string binary = vidpipe_binary();
  std::string args = expand(c.args, p);
  // The command word comes after vidpipe's own flags (`-q run ...`).
  std::size_t at = 0;
  while (args.compare(at, 1, "-") == 0 && args.find(' ', at) != std::string::npos) at = args.find(' ', at) + 1;
  for (const std::string command : {"run", "bench", "serve"}) {
    if (args.compare(at, command.size() + 1, command + " ") != 0) continue;
    std::string defaults = " --set device=cpu --set gpu.model=" + p.dir + "/model --set gpu.inference=false";
    // A service listens: on a port of its own, not serve.yaml's, so that cases run side by side.
    if (command == "serve") {
      defaults += " --set metrics.listen=127.0.0.1:0";
      args.insert(at + command.size(), defaults);
      continue;
    }
    if (args.find("--config") == std::string::npos && args.find("-c ") == std::string::npos)
      defaults += command == "run" ? " --config " + p.dir + "/my.yaml" : " --config " + source_dir() + "/config/bench.yaml";
    args.insert(at + command.size(), defaults);
  }
  return binary + " " + args;
}

// Every file under the folder (special files and links too) and its bytes ("<special>"
// for a FIFO or device, "<link to x>" for a link, which is never followed: a loop or a
// dangling one is a case's input).
void snapshot_into(const fs::path& dir, const fs::path& root, std::map<std::string, std::string>& files) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::file_status status = fs::symlink_status(entry.path());
    const std::string name = entry.path().lexically_relative(root).string();  // never follows a link
    if (fs::is_symlink(status))
      files[name] = "<link to " + fs::read_symlink(entry.path()).string() + ">";
    else if (fs::is_directory(status))
      snapshot_into(entry.path(), root, files);
    else
      files[name] = fs::is_regular_file(status) ? file_bytes(entry.path().string()) : "<special>";
  }
}

std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  snapshot_into(dir, dir, files);
  return files;
}

// Runs vidpipe; a signal case starts it in the background and signals it once its stderr
// matches the case's pattern. Returns the exit code.
int run_vidpipe(const HostileCase& c, const Place& p) {
  const std::string redirect = " >'" + p.side + "/out.txt' 2>'" + p.side + "/err.txt'";
  const std::string in = c.stdin_from.empty() ? "" : "(" + expand(c.stdin_from, p) + ") | ";
  if (c.signal.number == 0) return run_command("cd '" + p.dir + "' && " + in + command_line(c, p) + redirect);
  Background run("cd '" + p.dir + "' && exec " + command_line(c, p) + redirect, p.side + "/shell.txt");
  const std::regex when(c.signal.when.empty() ? "" : c.signal.when);
  const bool reached = wait_until([&] { return std::regex_search(file_bytes(p.side + "/err.txt"), when); },
                                  std::chrono::milliseconds(static_cast<int>(c.within_s * 1000)));
  EXPECT_TRUE(reached) << "the run never reached /" << c.signal.when << "/:\n" << file_bytes(p.side + "/err.txt");
  run.send(c.signal.number);
  const auto status = run.wait(std::chrono::milliseconds(static_cast<int>(c.within_s * 1000)));
  EXPECT_TRUE(status.has_value()) << "still running after the signal";
  return status.value_or(-1);
}

void check_messages(const HostileCase& c, const std::string& out, const std::string& err) {
  for (const char* crash : {"AddressSanitizer", "LeakSanitizer", "runtime error:", "terminate called", "Segmentation"})
    EXPECT_EQ(err.find(crash), std::string::npos) << crash << "\n" << err;
  std::vector<std::string> error_lines;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("vidpipe: ", 0) == 0) error_lines.push_back(line);
  if (c.exit_code != 0 && c.exit_code != 130) {
    ASSERT_EQ(error_lines.size(), 1u) << "one line that says what went wrong:\n" << err;
    EXPECT_NE(error_lines.front().find(c.says), std::string::npos) << "wanted '" << c.says << "' in\n" << err;
  } else if (!c.says.empty()) {
    EXPECT_NE(err.find(c.says), std::string::npos) << "wanted '" << c.says << "' in\n" << err;
  }
  if (!c.prints.empty()) EXPECT_NE(out.find(c.prints), std::string::npos) << "wanted '" << c.prints << "' in\n" << out;
}

void check_files(const HostileCase& c, const Place& p, const std::map<std::string, std::string>& before,
                 const std::string& shown) {
  const auto after = snapshot(p.dir);
  const std::set<std::string> may_change(c.changes.begin(), c.changes.end());
  for (const auto& [name, bytes] : before) {
    const auto now = after.find(name);
    if (now == after.end()) {
      ADD_FAILURE() << "'" << name << "' was there before the run and is gone";
    } else if (!may_change.count(name)) {
      EXPECT_TRUE(now->second == bytes) << "'" << name << "' was changed by the run";
    }
  }
  std::set<std::string> expected(c.writes.begin(), c.writes.end()), left;
  for (const auto& [name, bytes] : after)
    if (!before.count(name)) left.insert(name);
  EXPECT_EQ(left, expected) << "the files the run left beside what was there";
  for (const std::string& secret : c.hidden) {
    EXPECT_EQ(shown.find(secret), std::string::npos) << "'" << secret << "' was shown:\n" << shown;
    for (const std::string& name : left)
      EXPECT_EQ(after.at(name).find(secret), std::string::npos) << "'" << secret << "' was written in " << name;
  }
}

void check_outputs(const HostileCase& c, const Place& p) {
  for (const auto& [name, count] : c.frames)
    EXPECT_EQ(decode_all(p.dir + "/" + name).frames.size(), static_cast<std::size_t>(count)) << name;
  if (c.report.empty()) return;
  const std::string text = file_bytes(p.dir + "/" + c.report_file);
  ASSERT_FALSE(text.empty()) << "no report at " << c.report_file;
  const nlohmann::json report = nlohmann::json::parse(text);
  for (const auto& [pointer, value] : c.report) {
    const nlohmann::json::json_pointer at(pointer);
    ASSERT_TRUE(report.contains(at)) << pointer << " missing in " << text;
    EXPECT_EQ(report.at(at), value) << pointer;
  }
}

}  // namespace

void run_case(const HostileCase& c) {
  if (c.no_gpu && cuda::device_count() > 0) GTEST_SKIP() << "a case for a machine without a GPU";
  const Place p{scratch_dir() + "/hostile/" + c.suite + "." + c.name, scratch_dir() + "/hostile/" + c.suite + "." + c.name + ".side"};
  place_fixtures(p);
  for (const std::string& line : c.setup)
    ASSERT_EQ(run_command("cd '" + p.dir + "' && bash -c '" + replace_all(setup_prelude + expand(line, p), "'", "'\\''") +
                          "' >'" + p.side + "/setup.txt' 2>&1"),
              0)
        << c.file << ": setup failed: " << line << "\n" << file_bytes(p.side + "/setup.txt");
  const auto before = snapshot(p.dir);
  std::unique_ptr<Background> peer;
  if (!c.peer.empty()) {
    peer = std::make_unique<Background>("cd '" + p.dir + "' && " + expand(c.peer, p), p.side + "/peer.txt");
    ASSERT_TRUE(wait_until([&] { return fs::exists(p.side + "/ready"); }, 20s))
        << "the peer never wrote " << p.side << "/ready\n" << file_bytes(p.side + "/peer.txt");
  }
  const auto started = std::chrono::steady_clock::now();
  const int code = run_vidpipe(c, p);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  peer.reset();
  const std::string out = file_bytes(p.side + "/out.txt"), err = file_bytes(p.side + "/err.txt");
  SCOPED_TRACE(c.file + ": " + c.name + "\n$ vidpipe " + expand(c.args, p) + "\nstderr:\n" + err.substr(0, 4000));
  EXPECT_EQ(code, c.exit_code);
  EXPECT_LT(took, c.within_s) << "it did not end in time";
  check_messages(c, out, err);
  check_files(c, p, before, out + err);
  check_outputs(c, p);
  if (!::testing::Test::HasFailure()) {
    fs::remove_all(p.dir);
    fs::remove_all(p.side);
  }
}

}  // namespace vidpipe::test
