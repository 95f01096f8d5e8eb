// What a run writes never lands on what it reads, and two runs writing one output do not
// mix: each writes its own temporary file (<out>.<pid>.part), the later rename says it
// replaces the other's, and a leftover from a killed run is never taken for one's own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli_runner.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

std::string clip() { return test::make_clip("safety.mp4", 160, 120, 20, "-c:v libx264 -pix_fmt yuv420p"); }

TEST(OutputSafetyE2E, AnOutputThatIsAnInputIsRefusedAndTheInputUntouched) {
  const std::string dir = test::scratch_dir() + "/same";
  std::filesystem::create_directories(dir);
  const std::string input = dir + "/same.mp4";
  std::filesystem::copy_file(clip(), input, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::remove(dir + "/link.mp4");
  std::filesystem::create_symlink(input, dir + "/link.mp4");
  const std::string original = test::file_bytes(input);
  const std::string base = "--input " + input + " --set device=cpu --set gpu.inference=false ";
  for (const auto& [key, args] : std::vector<std::pair<std::string, std::string>>{
           {"sink.path", "run " + base + "--set sink.path=" + dir + "/./same.mp4 --set metrics.report="},
           {"sink.path", "run " + base + "--set sink.path=" + dir + "/link.mp4 --set metrics.report="},
           {"metrics.report", "run " + base + "--set sink.kind=null --report " + dir + "/../same/same.mp4"},
           {"metrics.trace", "run " + base + "--set sink.kind=null --set metrics.report= --trace " + input},
           {"metrics.detections", "run " + base + "--set sink.kind=null --set metrics.report= --detections " + input},
           {"bench.json", "bench " + base + "--set bench.json=" + dir + "/link.mp4 --set bench.chart="},
           {"bench.chart", "bench " + base + "--set bench.json= --set bench.chart=" + input}}) {
    const test::CommandResult r = test::vidpipe(args);
    EXPECT_EQ(r.code, 2) << key << "\n" << r.output;
    EXPECT_NE(r.output.find(key + ": '"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("is the input '" + input + "'; writing it would destroy"), std::string::npos) << r.output;
    EXPECT_EQ(test::file_bytes(input), original) << key << ": the input was touched";
    EXPECT_FALSE(test::temporary_left(input)) << key;
  }
}

TEST(OutputSafetyE2E, TwoRunsOnOneOutputDoNotMixAndALeftoverIsNotTaken) {
  const std::string dir = test::scratch_dir() + "/two";
  std::filesystem::create_directories(dir);
  const std::string out = dir + "/out.mp4";
  // Leftovers of killed runs, under the old name and under another pid.
  std::ofstream(out + ".part") << "stale";
  std::ofstream(out + ".999999999.part") << "stale";
  const std::string run = test::vidpipe_command_line("run --input " + clip() + " --set device=cpu --set gpu.inference="
                                                     "false --set overlay.hud=false --set metrics.report= --set sink.path=" + out);
  ASSERT_EQ(test::run_command("(" + run + " > " + dir + "/a.log 2>&1; echo $? > " + dir + "/a.rc) & (" + run + " > " +
                              dir + "/b.log 2>&1; echo $? > " + dir + "/b.rc) & wait"),
            0);
  EXPECT_EQ(test::file_bytes(dir + "/a.rc"), "0\n") << test::file_bytes(dir + "/a.log");
  EXPECT_EQ(test::file_bytes(dir + "/b.rc"), "0\n") << test::file_bytes(dir + "/b.log");
  // One run's whole video, not a mix: every frame decodes and matches the source.
  const test::DecodedVideo source = test::decode_all(clip()), got = test::decode_all(out);
  ASSERT_EQ(got.frames.size(), source.frames.size());
  for (std::size_t i = 0; i < got.frames.size(); ++i) EXPECT_GT(test::psnr(got.frames[i], source.frames[i]), 30.0) << i;
  EXPECT_EQ(test::file_bytes(out + ".part"), "stale");
  EXPECT_EQ(test::file_bytes(out + ".999999999.part"), "stale");
  std::filesystem::remove(out + ".part");
  std::filesystem::remove(out + ".999999999.part");
  EXPECT_FALSE(test::temporary_left(out)) << "a run left its temporary file";
}

// `vidpipe run ... | head -n 1`: the reader of the logs goes away at once; the run still
// finishes, exits 0, and leaves a whole video and its report.
TEST(OutputSafetyE2E, AClosedPipeDoesNotLoseTheOutput) {
  const std::string dir = test::scratch_dir() + "/pipe";
  std::filesystem::create_directories(dir);
  const std::string out = dir + "/out.mp4", report = dir + "/report.json";
  const std::string run = test::vidpipe_command_line("run --input " + clip() + " --set device=cpu --set gpu.inference="
                                                     "false --set metrics.live=true --report " + report +
                                                     " --set sink.path=" + out);
  ASSERT_EQ(test::run_command("bash -c '" + run + " 2>&1 | head -n 1 > /dev/null; echo ${PIPESTATUS[0]} > " + dir +
                              "/rc'"),
            0);
  EXPECT_EQ(test::file_bytes(dir + "/rc"), "0\n");
  EXPECT_EQ(test::decode_all(out).frames.size(), 20u);
  EXPECT_EQ(test::read_json(report).at("frames"), 20);
  EXPECT_FALSE(test::temporary_left(out));
}

// A full disk, as a file-size limit (ulimit -f) fails writes the same way without needing
// root for a small filesystem: one line naming the output, the file written and the error,
// exit 3, no partial file left, and the report (written where there is room) says 0 frames
// were written, which is what a user finds.
TEST(OutputSafetyE2E, AWriteErrorNamesTheFileAndLeavesNothingHalfWritten) {
  const std::string dir = test::scratch_dir() + "/full";
  std::filesystem::create_directories(dir);
  const std::string big = test::make_clip("full-in.mp4", 320, 240, 60, "-c:v libx264 -pix_fmt yuv420p -vf noise=alls=30:allf=t");
  const std::string out = dir + "/out.mp4", report = dir + "/report.json", log = dir + "/log.txt";
  const std::string run = test::vidpipe_command_line("run --input " + big + " --set device=cpu --set gpu.inference="
                                                     "false --set sink.crf=0 --report " + report + " --set sink.path=" + out);
  // 96 KiB: the report fits, the lossless video does not.
  const int code = test::run_command("bash -c 'ulimit -f 96; " + run + "' > " + log + " 2>&1");
  const std::string said = test::file_bytes(log);
  EXPECT_EQ(code, 3) << said;
  EXPECT_NE(said.find("'" + out + "': cannot write '" + out + "."), std::string::npos) << said;
  EXPECT_NE(said.find("File too large"), std::string::npos) << said;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(test::temporary_left(out)) << "a partial file was left";
  const nlohmann::json written = test::read_json(report);
  EXPECT_EQ(written.at("inputs").at(0).at("frames_written"), 0) << written.dump();
}

}  // namespace
}  // namespace vidpipe
