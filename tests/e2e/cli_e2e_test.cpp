// The command line behaves like the tools its users know: --version, a mistyped command or
// option named with the nearest valid one (exit 2, like every configuration error), -v and
// -q after the command, and --report '' turning the report off.
#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace vidpipe
