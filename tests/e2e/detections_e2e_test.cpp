// metrics.detections (--detections): one JSON line per delivered frame, in order, whose
// boxes are the detector's. Batched async runs must file each frame's faces under that
// frame: their log is held against the sync run's, and on a GPU against the CPU twin's.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "face_assets.hpp"
#include "gpu_guard.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

constexpr int frames = 45;  // Megamind's first faces appear at frame 2; some frames have none

struct LoggedRun {
  std::vector<nlohmann::json> lines;
  nlohmann::json report;
};

LoggedRun run_logged(const std::string& name, const std::string& sets) {
  const std::string log = test::scratch_dir() + "/" + name + ".jsonl";
  const std::string report = test::scratch_dir() + "/" + name + ".json";
  const test::CommandResult r =
      test::vidpipe("run --input " + test::opencv_data("Megamind.avi") + " --set sink.kind=null --set metrics.live=false" +
                    " --set input.max_frames=" + std::to_string(frames) + " --report " + report +
                    " --detections " + log + " " + sets);
  EXPECT_EQ(r.code, 0) << r.output;
  LoggedRun run{{}, test::read_json(report)};
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) run.lines.push_back(nlohmann::json::parse(line));
  return run;
}

// One line a frame, in order, with the report's face count, each list best first.
void expect_whole_log(const LoggedRun& run, const std::string& what) {
  ASSERT_EQ(static_cast<int>(run.lines.size()), frames) << what;
  int faces = 0;
  double last_pts = -1;
  for (int i = 0; i < frames; ++i) {
    const nlohmann::json& l = run.lines[i];
    EXPECT_EQ(l.at("input"), 0) << what;
    EXPECT_EQ(l.at("frame"), i) << what;
    EXPECT_GT(l.at("pts_s").get<double>(), last_pts) << what << " frame " << i;
    last_pts = l.at("pts_s").get<double>();
    double last_score = 1.0;
    for (const auto& box : l.at("faces")) {
      ASSERT_EQ(box.size(), 5u) << what;
      EXPECT_LT(box[0].get<double>(), box[2].get<double>()) << what << " frame " << i;
      EXPECT_LT(box[1].get<double>(), box[3].get<double>()) << what << " frame " << i;
      EXPECT_GT(box[4].get<double>(), 0.4) << what << ": below gpu.score_threshold";
      EXPECT_LE(box[4].get<double>(), last_score) << what << ": not best first";
      last_score = box[4].get<double>();
      ++faces;
    }
  }
  EXPECT_EQ(faces, run.report.at("faces").get<int>()) << what;
}

// Same faces, frame by frame, within float noise (the twin and the kernels sum in other orders).
void expect_same_faces(const LoggedRun& got, const LoggedRun& want, const std::string& what) {
  ASSERT_EQ(got.lines.size(), want.lines.size()) << what;
  for (std::size_t i = 0; i < want.lines.size(); ++i) {
    const auto& a = got.lines[i].at("faces");
    const auto& b = want.lines[i].at("faces");
    ASSERT_EQ(a.size(), b.size()) << what << " frame " << i;
    for (std::size_t k = 0; k < a.size(); ++k)
      for (int c = 0; c < 5; ++c)
        EXPECT_NEAR(a[k][c].get<double>(), b[k][c].get<double>(), c == 4 ? 1e-3 : 0.1)
            << what << " frame " << i << " face " << k;
  }
}

TEST(DetectionsE2E, EveryFrameInOrderAndBatchesFileFacesUnderTheirFrame) {
  const LoggedRun sync = run_logged("det-sync", "--set device=cpu --set copy.mode=sync");
  expect_whole_log(sync, "sync");
  EXPECT_GE(sync.report.at("frames_with_faces").get<int>(), frames / 2) << "Megamind's opening should have faces";
  EXPECT_LT(sync.report.at("frames_with_faces").get<int>(), frames) << "and a frame without: the test needs both";
  const LoggedRun batched = run_logged("det-b4", "--set device=cpu --set copy.streams=3 --set copy.batch_size=4");
  expect_whole_log(batched, "async x3 b4");
  expect_same_faces(batched, sync, "async x3 b4 against sync");
}

TEST(DetectionsE2E, InferenceOffLogsEveryFrameWithNoFaces) {
  const LoggedRun off = run_logged("det-off", "--set device=cpu --set gpu.inference=false");
  expect_whole_log(off, "inference off");
  for (const auto& l : off.lines) EXPECT_TRUE(l.at("faces").empty());
}

TEST(DetectionsE2E, AFolderThatIsNotThereIsRefusedBeforeTheRun) {
  const test::CommandResult r = test::vidpipe("run --input " + test::opencv_data("Megamind.avi") +
                                              " --set device=cpu --set sink.kind=null --detections /nonexistent/d.jsonl");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("metrics.detections"), std::string::npos) << r.output;
}

TEST(DetectionsE2E, GpuBatchedRunFindsTheCpuTwinsFaces) {
  REQUIRE_GPU();
  const LoggedRun cpu = run_logged("det-cpu", "--set device=cpu --set copy.mode=sync");
  const LoggedRun gpu = run_logged("det-gpu", "--set copy.streams=2 --set copy.batch_size=8");
  expect_whole_log(gpu, "GPU async x2 b8");
  expect_same_faces(gpu, cpu, "GPU async x2 b8 against the CPU twin");
}

}  // namespace
}  // namespace vidpipe
