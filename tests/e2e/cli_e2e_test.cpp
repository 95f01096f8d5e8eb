// The command line behaves like the tools its users know: --version, a mistyped command or
// option named with the nearest valid one (exit 2, like every configuration error), -v and
// -q after the command, and --report '' turning the report off.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

TEST(CliE2E, VersionNamesTheBuildAndWhatItRunsWith) {
  for (const char* flag : {"--version", "-V"}) {
    const test::CommandResult r = test::vidpipe(flag);
    EXPECT_EQ(r.code, 0) << r.output;
    for (const char* part : {"vidpipe 0.", "CUDA runtime", "driver", "GPU code built for", "FFmpeg", "OpenCV"})
      EXPECT_NE(r.output.find(part), std::string::npos) << part << " missing from:\n" << r.output;
  }
}

TEST(CliE2E, BenchTakesNoReportOption) {
  // bench writes bench.json (bench.json / bench.chart): a --report it ignored would mislead.
  const test::CommandResult r = test::vidpipe("bench --report x.json");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown option '--report' for 'bench'"), std::string::npos) << r.output;
}

TEST(CliE2E, MistakesAreNamedWithTheNearestValidWord) {
  struct Mistake {
    std::string args, says;
  };
  for (const Mistake& m : std::vector<Mistake>{
           {"runn", "unknown command 'runn'; did you mean 'run'?"},
           {"bnch", "unknown command 'bnch'; did you mean 'bench'?"},
           {"run --inptu x.mp4", "unknown option '--inptu' for 'run'; did you mean '--input'?"},
           {"bench --breif", "unknown option '--breif' for 'bench'; did you mean '--brief'?"},
           {"", "a command is required"}}) {
    const test::CommandResult r = test::vidpipe(m.args);
    EXPECT_EQ(r.code, 2) << m.args << "\n" << r.output;
    EXPECT_NE(r.output.find(m.says), std::string::npos) << m.args << "\n" << r.output;
  }
}

TEST(CliE2E, VerboseAndQuietAfterTheCommandAndAnEmptyReportTurnsItOff) {
  const std::string clip = test::make_clip("cli.mp4", 160, 120, 5, "-c:v libx264 -pix_fmt yuv420p");
  const std::string dir = test::scratch_dir() + "/cli";
  std::filesystem::create_directories(dir);
  const std::string base = "run --input " + clip + " --set device=cpu --set gpu.inference=false --set sink.kind=null ";
  const test::CommandResult quiet = test::vidpipe(base + "-q --report " + dir + "/q.json");
  EXPECT_EQ(quiet.code, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find(" info "), std::string::npos) << "-q still printed info lines:\n" << quiet.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/q.json"));
  const test::CommandResult loud = test::vidpipe(base + "-v --report " + dir + "/v.json");
  EXPECT_EQ(loud.code, 0) << loud.output;
  EXPECT_NE(loud.output.find(" info "), std::string::npos) << loud.output;
  const test::CommandResult none = test::vidpipe(base + "--report ''");
  EXPECT_EQ(none.code, 0) << none.output;
  EXPECT_EQ(none.output.find("report:"), std::string::npos) << "--report '' still wrote one:\n" << none.output;
}

// Where NVENC cannot be used, the note says FFmpeg's own reason and FFmpeg's probe line is
// not printed beside it (it used to print "[h264_nvenc @ 0x...] Cannot load libcuda.so.1").
TEST(CliE2E, AnUnusableNvencIsExplainedInTheFallbackNote) {
  const std::string clip = test::make_clip("nvenc.mp4", 160, 120, 3, "-c:v libx264 -pix_fmt yuv420p");
  const std::string out = test::scratch_dir() + "/nvenc-out.mp4";
  const test::CommandResult r = test::vidpipe("run --input " + clip + " --set gpu.inference=false --set sink.codec=auto "
                                              "--set sink.path=" + out + " --report ''");
  ASSERT_EQ(r.code, 0) << r.output;
  if (r.output.find("NVENC not usable") == std::string::npos) GTEST_SKIP() << "NVENC works on this machine";
  // The reason may hold parentheses of its own ("unsupported device (2): (no details)").
  const std::regex note(R"(NVENC not usable here \((.+)\); encoding with libx264)");
  std::smatch reason;
  ASSERT_TRUE(std::regex_search(r.output, reason, note)) << r.output;
  EXPECT_GT(reason[1].length(), 8) << "no reason given: " << r.output;
  EXPECT_EQ(reason[1].str().find(" @ 0x"), std::string::npos) << "FFmpeg's context prefix left in: " << reason[1];
  EXPECT_EQ(r.output.find("[h264_nvenc @"), std::string::npos) << "FFmpeg's probe line printed:\n" << r.output;
}

// The mode names what really ran: NVDEC asked for on a 4:4:4 H.264 clip (which NVDEC does
// not decode) reads "cpu-decode (nvdec did not start)", never "nvdec".
TEST(CliE2E, TheModeSaysWhatRanWhenNvdecDidNotStart) {
  const std::string clip = test::make_clip("nvdec-444.mp4", 320, 240, 8, "-c:v libx264 -pix_fmt yuv444p");
  const test::CommandResult r = test::vidpipe("run --input " + clip + " --set reader.decoder=nvdec --set "
                                              "gpu.inference=false --set sink.kind=null --report '' --json");
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json report = nlohmann::json::parse(r.output.substr(r.output.find("{\n")));
  const std::string mode = report.at("mode"), decoder = report.at("inputs").at(0).at("decoder");
  if (decoder == "nvdec") {
    EXPECT_EQ(mode.find("did not start"), std::string::npos) << mode;
  } else if (decoder == "cpu (nvdec did not start)") {
    EXPECT_NE(mode.find("cpu-decode (nvdec did not start)"), std::string::npos) << mode;
  } else {
    // No CUDA device: the configuration itself falls back, and the mode never says nvdec.
    EXPECT_EQ(decoder, "cpu");
    EXPECT_EQ(mode.find("nvdec"), std::string::npos) << mode;
  }
}

// stdout is the summary's alone (logs go to stderr), or with --json the report's, which a
// script can parse; the report says which program and layout wrote it.
TEST(CliE2E, StdoutHoldsTheSummaryOrTheJsonReport) {
  const std::string clip = test::make_clip("cli-out.mp4", 160, 120, 5, "-c:v libx264 -pix_fmt yuv420p");
  const std::string dir = test::scratch_dir() + "/cli-out";
  std::filesystem::create_directories(dir);
  const std::string base = test::vidpipe_command_line("run --input " + clip + " --set device=cpu --set "
                                                      "gpu.inference=false --set sink.kind=null --report ''");
  ASSERT_EQ(test::run_command(base + " > " + dir + "/out.txt 2> " + dir + "/err.txt"), 0);
  const std::string out = test::file_bytes(dir + "/out.txt");
  EXPECT_NE(out.find("fps"), std::string::npos) << out;
  EXPECT_NE(out.find("face detection off (gpu.inference: false)"), std::string::npos) << out;
  EXPECT_EQ(out.find(" info "), std::string::npos) << "log lines on stdout:\n" << out;
  // The CPU path says what it is: no GPU busy share, no link rate.
  EXPECT_NE(out.find("cpu busy"), std::string::npos) << out;
  EXPECT_EQ(out.find("H2D"), std::string::npos) << out;
  // 5 frames are fewer than the warm-up: the summary says its figures mean little.
  EXPECT_NE(out.find("not meaningful"), std::string::npos) << out;
  EXPECT_NE(test::file_bytes(dir + "/err.txt").find(" info "), std::string::npos);
  ASSERT_EQ(test::run_command(base + " --json > " + dir + "/json.txt 2> " + dir + "/json-err.txt"), 0);
  const nlohmann::json report = nlohmann::json::parse(test::file_bytes(dir + "/json.txt"));
  EXPECT_EQ(report.at("schema_version"), 3);
  EXPECT_EQ(report.at("vidpipe_version").get<std::string>().rfind("0.", 0), 0u) << report.at("vidpipe_version");
  EXPECT_EQ(report.at("frames"), 5);
  EXPECT_NE(test::file_bytes(dir + "/json-err.txt").find("fps"), std::string::npos) << "the summary went missing";
}

// The rows a terminal shows for what was written to it: each \r or \n starts one; the
// erase-to-end code is not text.
std::vector<std::string> terminal_rows(const std::string& tty) {
  std::vector<std::string> rows;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= tty.size(); ++i) {
    if (i < tty.size() && tty[i] != '\r' && tty[i] != '\n') continue;
    std::string row = tty.substr(start, i - start);
    if (const auto erase = row.find("\x1b[K"); erase != std::string::npos) row.erase(erase);
    if (!row.empty()) rows.push_back(row);
    start = i + 1;
  }
  return rows;
}

// A progress row is whole fields joined by " | ", the last maybe with a bar after it.
bool is_progress_row(const std::string& row) {
  const std::string f = "(" + std::string("fps [0-9]+\\.[0-9]|copy-wait [0-9]+\\.[0-9]%|[gc]pu busy [0-9]+\\.[0-9]%|"
                                          "dropped [0-9]+|[0-9]+/[0-9]+ [0-9]+%|[0-9]+ frames|ETA [0-9]+s|done|"
                                          "interrupted") + ")";
  return std::regex_match(row, std::regex("(" + f + ")( \\| " + f + ")*( \\[[#.]+\\])?"));
}

// On a terminal 60, 80 and 200 columns wide (a pseudo-terminal made by script(1)): every
// progress row is whole fields (no number cut), shorter than the terminal, the headline
// figures first, the frame count once; the last row reads 100% and done; the sink's
// "wrote" line has a row of its own. An MKV (no frame count in the container) still gets
// a total, from its duration and rate.
TEST(CliE2E, TheProgressLineFitsTheTerminalAndEndsAtAHundredPercent) {
  if (test::run_command("script -qec true /dev/null > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "script(1) cannot make a pseudo-terminal here";
  const std::string clip = test::make_clip("cli-progress.mkv", 160, 120, 45, "-c:v libx264 -pix_fmt yuv420p");
  const std::string dir = test::scratch_dir() + "/cli-progress";
  std::filesystem::create_directories(dir);
  for (const int columns : {60, 80, 200}) {
    const std::string run = test::vidpipe_command_line(
        "run --input " + clip + " --set device=cpu --set gpu.inference=false --set sink.path=" + dir +
        "/out.mp4 --report '' --set input.realtime=true");
    const std::string tty_file = dir + "/tty" + std::to_string(columns) + ".txt";
    ASSERT_EQ(test::run_command("script -qec \"stty cols " + std::to_string(columns) + "; " + run + "\" " + tty_file +
                                " > /dev/null"), 0);
    const std::string tty = test::file_bytes(tty_file);
    std::vector<std::string> progress;
    for (const std::string& row : terminal_rows(tty)) {
      if (row.find("wrote ") != std::string::npos)
        EXPECT_EQ(row.find("/45 "), std::string::npos) << "the log line landed on the bar's row: " << row;
      // The progress line starts with its figures or its count; the summary and logs do not.
      static const std::regex starts_like_progress("^(fps [0-9]|[0-9]+/[0-9]+ [0-9]+%|[0-9]+ frames( \\||$))");
      if (!std::regex_search(row, starts_like_progress)) continue;
      EXPECT_TRUE(is_progress_row(row)) << columns << " columns, not whole fields: '" << row << "'";
      EXPECT_LT(static_cast<int>(row.size()), columns) << row;
      const std::regex count("[0-9]+/45 ");
      EXPECT_EQ(std::distance(std::sregex_iterator(row.begin(), row.end(), count), std::sregex_iterator()), 1) << row;
      progress.push_back(row);
    }
    ASSERT_GT(progress.size(), 1u) << tty;
    EXPECT_EQ(progress.back().rfind("fps ", 0), 0u) << "headline figures first: " << progress.back();
    EXPECT_NE(progress.back().find("45/45 100%"), std::string::npos) << progress.back();
    if (columns >= 80) EXPECT_NE(progress.back().find("45/45 100% | done"), std::string::npos) << progress.back();
    EXPECT_EQ(tty.find("45 frames |"), std::string::npos) << "no total was estimated:\n" << tty;
  }
}

}  // namespace
}  // namespace vidpipe
