// The serving process's parts that need no pipeline: the control token, control.shard, the
// state file, and what /readyz, /inputs and /metrics say of a service's report.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/errors.hpp"
#include "metrics/health.hpp"
#include "metrics/prometheus_text.hpp"
#include "service/control_token.hpp"
#include "service/service_report.hpp"
#include "service/state_file.hpp"

namespace vidpipe {
namespace {

std::filesystem::path scratch(const std::string& name) {
  const auto folder = std::filesystem::temp_directory_path() / ("vidpipe-service-" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  return folder / name;
}

ControlToken token_from_file(const std::string& text) {
  const auto path = scratch("token");
  std::ofstream(path) << text;
  ControlConfig control;
  control.token_file = path.string();
  return ControlToken::load(control);
}

TEST(ControlToken, AcceptsOnlyTheExactBearerToken) {
  const ControlToken token = token_from_file("s3cret-token\n");  // a Secret file's newline is not part of it
  EXPECT_TRUE(token.accepts("Bearer s3cret-token"));
  EXPECT_FALSE(token.accepts("Bearer s3cret-toke"));
  EXPECT_FALSE(token.accepts("Bearer s3cret-tokenX"));
  EXPECT_FALSE(token.accepts("Bearer S3cret-token"));
  EXPECT_FALSE(token.accepts("s3cret-token"));
  EXPECT_FALSE(token.accepts("Basic s3cret-token"));
  EXPECT_FALSE(token.accepts(""));
}

TEST(ControlToken, FromTheEnvironmentWhenNoFileIsNamedAndNoneAtAllRefusesEverything) {
  ::setenv("VIDPIPE_CONTROL_TOKEN", "from-env", 1);
  const ControlToken from_env = ControlToken::load({});
  ::unsetenv("VIDPIPE_CONTROL_TOKEN");
  EXPECT_TRUE(from_env.accepts("Bearer from-env"));
  const ControlToken none = ControlToken::load({});
  EXPECT_FALSE(none.configured());
  EXPECT_FALSE(none.accepts("Bearer ")) << "no token must not mean an empty one is right";
}

TEST(ControlToken, AnEmptyOrMissingFileIsAConfigErrorNamingTheKey) {
  EXPECT_THROW(token_from_file(" \n"), ConfigError);
  ControlConfig missing;
  missing.token_file = scratch("no-such-token").string();
  try {
    ControlToken::load(missing);
    FAIL() << "a missing token file was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("control.token_file"), std::string::npos) << e.what();
  }
}

TEST(ControlShard, TakesKOverNOrTheNumberEndingTheHostName) {
  const Shard given = parse_shard("2/4", "");
  EXPECT_EQ(given.index, 2);
  EXPECT_EQ(given.count, 4);
  const Shard from_host = parse_shard("hostname/3", "vidpipe-edge-1");
  EXPECT_EQ(from_host.index, 1);
  EXPECT_EQ(from_host.count, 3);
  for (const char* bad : {"4/4", "1", "a/2", "1/0", "-1/2", "1/2/3"}) EXPECT_THROW(parse_shard(bad, ""), std::string) << bad;
  EXPECT_THROW(parse_shard("hostname/2", "laptop"), std::string);
  EXPECT_THROW(parse_shard("hostname/2", "vidpipe-5"), std::string) << "k must be below N";
}

TEST(StateFile, KeepsInputsAcrossARestartReadableOnlyByItsOwner) {
  const std::string path = scratch("state.json").string();
  std::filesystem::remove(path);
  EXPECT_TRUE(load_kept_inputs(path).empty()) << "no file yet: nothing to resume";
  save_kept_inputs(path, {{"cam-a", "rtsp://user:pw@cam/a"}, {"7", "clip.mp4"}});
  const std::vector<KeptInput> back = load_kept_inputs(path);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].id, "cam-a");
  EXPECT_EQ(back[0].uri, "rtsp://user:pw@cam/a") << "kept as given: the restart must reconnect";
  EXPECT_EQ(back[1].id, "7");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0077, 0u) << "the URLs may hold passwords";
  std::ofstream(path) << "{\"inputs\": 3}";
  EXPECT_THROW(load_kept_inputs(path), ConfigError);
}

nlohmann::json pipeline_report(double recent_fps, int decoded, bool reconnecting = false) {
  return {{"frames", decoded}, {"fps", 30.0}, {"recent_fps", recent_fps}, {"frames_dropped", 1},
          {"frames_measured", decoded}, {"mode", "async pinned x2"},
          {"inputs", {{{"frames_decoded", decoded}, {"frames_written", decoded}, {"reconnecting", reconnecting},
                       {"fps", 30.0}}}}};
}

TEST(ServiceReport, SumsThePipelinesAndRedactsEachInput) {
  const nlohmann::json report = service_report(
      {{"a", "rtsp://user:pw@cam/a", "running", "out-a.mp4", "", pipeline_report(30, 90)},
       {"b", "clip.mp4", "running", "out-b.mp4", "", pipeline_report(29, 60)},
       {"c", "rtsp://cam/c", "starting", "", "", nullptr}},
      "test", false);
  EXPECT_EQ(report["kind"], "service");
  EXPECT_EQ(report["frames"], 150);
  EXPECT_DOUBLE_EQ(report["recent_fps"].get<double>(), 59.0);
  EXPECT_EQ(report["frames_dropped"], 2);
  ASSERT_EQ(report["inputs"].size(), 3u);
  EXPECT_EQ(report["inputs"][0]["uri"], "rtsp://user:***@cam/a");
  EXPECT_EQ(report["inputs"][1]["frames_written"], 60);
  EXPECT_TRUE(report["inputs"][2]["frames_decoded"].is_null()) << "no report yet: no made-up figures";
  EXPECT_TRUE(report["process"]["threads"].get<int>() >= 1);
  EXPECT_EQ(inputs_of(report), report["inputs"]) << "/inputs is the service's own list";
}

TEST(ServiceReport, ReadyWithNoInputsAndThenOnlyWhenEveryPipelineDelivers) {
  EXPECT_TRUE(readiness_of(service_report({}, "test", false)).ready) << "a service waits for inputs";
  const auto ready_with = [](std::vector<PipelineView> pipelines) {
    return readiness_of(service_report(pipelines, "test", false));
  };
  EXPECT_TRUE(ready_with({{"a", "x.mp4", "running", "", "", pipeline_report(30, 5)},
                          {"b", "y.mp4", "ended", "", "", pipeline_report(0, 90)}})
                  .ready)
      << "a file that ended holds nothing back";
  const Readiness starting = ready_with({{"cam", "rtsp://cam/x", "starting", "", "", nullptr}});
  EXPECT_FALSE(starting.ready);
  EXPECT_EQ(starting.why, "input cam (rtsp://cam/x) is starting");
  const Readiness reconnecting = ready_with({{"cam", "rtsp://cam/x", "running", "", "", pipeline_report(30, 5, true)}});
  EXPECT_FALSE(reconnecting.ready);
  EXPECT_EQ(reconnecting.why, "input cam (rtsp://cam/x) is reconnecting");
  EXPECT_FALSE(ready_with({{"a", "x.mp4", "running", "", "", pipeline_report(0, 5)}}).ready) << "stalled";
  EXPECT_FALSE(ready_with({{"a", "x.mp4", "failed", "", "no such file", nullptr}}).ready);
}

TEST(ServiceReport, MetricsLabelEachPipelineAndCountTheStates) {
  const std::string text = prometheus_text(service_report(
      {{"a", "x.mp4", "running", "", "", pipeline_report(30, 90)}, {"b", "y.mp4", "starting", "", "", nullptr}},
      "test", false));
  EXPECT_NE(text.find("vidpipe_frames_total{pipeline=\"a\"} 90"), std::string::npos) << text;
  EXPECT_NE(text.find("vidpipe_service_inputs{state=\"starting\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("vidpipe_input_frames_decoded_total{pipeline=\"a\",input=\"0\""), std::string::npos) << text;
  EXPECT_EQ(text.find("pipeline=\"b\""), std::string::npos) << "no figures before a pipeline has a report";
  // One HELP/TYPE per family even with several pipelines (Prometheus refuses repeats).
  const std::string two = prometheus_text(service_report(
      {{"a", "x.mp4", "running", "", "", pipeline_report(30, 90)}, {"b", "y.mp4", "running", "", "", pipeline_report(30, 9)}},
      "test", false));
  std::size_t types = 0;
  for (std::size_t at = two.find("# TYPE vidpipe_frames_total "); at != std::string::npos;
       at = two.find("# TYPE vidpipe_frames_total ", at + 1))
    ++types;
  EXPECT_EQ(types, 1u);
}

}  // namespace
}  // namespace vidpipe
