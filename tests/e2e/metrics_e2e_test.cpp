// The headline figures held to values the test measures itself from the run's trace:
// the copy-wait share against the time the copies took (the H2D and D2H spans, timed by
// the executor's clock reads or CUDA events, not by its wait records), the GPU busy share
// against the union of each batch's device span, the measured window against the sink's
// own spans. And, where there is a device, sync pageable against async pinned.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "cli_runner.hpp"
#include "memory/cuda_raii.hpp"
#include "test_media.hpp"
#include "trace_reader.hpp"

namespace vidpipe {
namespace {

constexpr int warmup = 5;

struct Measured {
  nlohmann::json report;
  std::vector<test::TraceSpan> spans;
  double lo = 0, hi = 0;  // the measured window, from the sink spans: after the warm-up's last frame
};

Measured run_with_trace(const std::string& name, const std::string& sets) {
  const std::string clip = test::make_clip("metrics-720p.mp4", 1280, 720, 40, "-c:v libx264 -pix_fmt yuv420p -g 10");
  const std::string report = test::scratch_dir() + "/" + name + ".json", trace = test::scratch_dir() + "/" + name + "-trace.json";
  const auto r = test::vidpipe("run --input " + clip + " --set sink.kind=null --set gpu.inference=false "
                               "--set metrics.warmup_frames=" + std::to_string(warmup) + " --report " + report +
                               " --trace " + trace + " " + sets);
  EXPECT_EQ(r.code, 0) << r.output;
  Measured m{test::read_json(report), test::read_trace(trace)};
  std::vector<double> sink_ends;
  for (const auto& s : m.spans)
    if (s.track == 3) sink_ends.push_back(s.end_s);
  std::sort(sink_ends.begin(), sink_ends.end());
  EXPECT_EQ(sink_ends.size(), 40u);
  m.lo = sink_ends.at(warmup - 1);
  m.hi = sink_ends.back();
  return m;
}

// Each batch's device span (first H2D start to last D2H end), one per stream and batch.
std::vector<test::TraceSpan> batch_spans(const std::vector<test::TraceSpan>& spans) {
  std::map<std::pair<int, std::int64_t>, test::TraceSpan> batches;
  for (const auto& s : spans) {
    if (s.track < 10) continue;
    const auto key = std::make_pair(s.track, s.args.at("first_frame").get<std::int64_t>());
    auto [it, fresh] = batches.try_emplace(key, s);
    it->second.begin_s = std::min(it->second.begin_s, s.begin_s);
    it->second.end_s = std::max(it->second.end_s, s.end_s);
  }
  std::vector<test::TraceSpan> out;
  for (auto& [key, span] : batches) out.push_back(span);
  return out;
}

TEST(MetricsE2E, CopyWaitShareIsTheTimeInsideBlockingCopies) {
  const Measured m = run_with_trace("sync-pageable", "--set copy.mode=sync --set copy.memory=pageable");
  EXPECT_NEAR(m.report.at("measured_s").get<double>(), m.hi - m.lo, 1e-3);
  // Sync mode: the one thread is blocked exactly while a frame's copies run.
  std::vector<test::TraceSpan> copies;
  for (const auto& s : m.spans)
    if (s.track >= 10 && (s.name == "H2D" || s.name == "D2H")) copies.push_back(s);
  const double expected = test::union_within(copies, m.lo, m.hi) / (m.hi - m.lo);
  const double share = m.report.at("copy_wait_share");
  ASSERT_GT(expected, 0.0);
  // The wait records and the copy spans are two clock reads around the same copies.
  EXPECT_NEAR(share, expected, 0.25 * expected + 0.002) << "copies took " << 100 * expected << "% of the window";
}

TEST(MetricsE2E, GpuBusyShareIsTheUnionOfTheDeviceSpans) {
  const Measured m = run_with_trace("async-busy", "--set copy.mode=async");
  const double expected = test::union_within(batch_spans(m.spans), m.lo, m.hi) / (m.hi - m.lo);
  ASSERT_GT(expected, 0.0);
  EXPECT_NEAR(m.report.at("gpu_busy_share").get<double>(), expected, 0.01);
}

// The CPU twin of the detector takes ~100x longer per frame than decoding or writing the
// frame: the run must be judged compute-bound, in the summary and the report alike.
TEST(MetricsE2E, DetectorOnTheCpuIsJudgedComputeBound) {
  const std::string clip = test::make_clip("metrics-small.mp4", 320, 240, 40, "-c:v libx264 -pix_fmt yuv420p");
  const std::string report = test::scratch_dir() + "/cpu-detector.json";
  const auto r = test::vidpipe("run --set device=cpu --input " + clip + " --set sink.kind=null --report " + report +
                               " --set metrics.warmup_frames=5");
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json j = test::read_json(report);
  EXPECT_EQ(j.at("bottleneck").at("stage"), "compute") << j.at("bottleneck").dump();
  EXPECT_GT(j.at("stage_shares").at("compute").at("busy").get<double>(), 0.9);
  EXPECT_NE(r.output.find(j.at("bottleneck").at("evidence").get<std::string>()), std::string::npos)
      << "the summary does not give the verdict:\n" << r.output;
}

// The start-up figures tell the first frame's story as the trace does, stage by stage,
// and the parts of assembling the run all come before the reader starts on that frame.
TEST(MetricsE2E, StartupFiguresFollowTheFirstFrameThroughTheTrace) {
  const Measured m = run_with_trace("startup", "--set copy.mode=async");
  const nlohmann::json& startup = m.report.at("startup");
  const nlohmann::json& first = startup.at("first_frame");
  std::map<std::string, test::TraceSpan> frame0;  // its decode and sink spans, its batch's H2D and D2H
  for (const auto& s : m.spans) {
    const bool of_frame0 = s.args.contains("frame") ? s.args["frame"] == 0 : s.args.value("first_frame", -1) == 0;
    if (of_frame0) frame0[s.name] = s;
  }
  ASSERT_EQ(frame0.count("decode") + frame0.count("sink") + frame0.count("H2D") + frame0.count("D2H"), 4u);
  EXPECT_NEAR(first.at("decode_begin_s").get<double>(), frame0["decode"].begin_s, 1e-5);
  EXPECT_NEAR(first.at("decoded_s").get<double>(), frame0["decode"].end_s, 1e-5);
  EXPECT_NEAR(first.at("gpu_begin_s").get<double>(), frame0["H2D"].begin_s, 1e-5);
  EXPECT_NEAR(first.at("gpu_end_s").get<double>(), frame0["D2H"].end_s, 1e-5);
  EXPECT_NEAR(first.at("delivered_s").get<double>(), frame0["sink"].end_s, 1e-5);
  EXPECT_DOUBLE_EQ(first.at("delivered_s").get<double>(), m.report.at("first_frame_s").get<double>());
  double assembling = 0;
  for (const char* part : {"cuda_s", "inputs_s", "executor_s", "sinks_s"}) assembling += startup.at(part).get<double>();
  EXPECT_GT(startup.at("inputs_s").get<double>(), 0.0);
  EXPECT_LE(assembling, first.at("decode_begin_s").get<double>());
  EXPECT_GE(startup.at("process_s").get<double>(), 0.0);
  // The end is timed after the report's figures were made, and written into it.
  EXPECT_GE(m.report.at("shutdown").at("finish_s").get<double>(), 0.0);
  EXPECT_GT(m.report.at("shutdown").at("release_s").get<double>(), 0.0);
}

// What vidpipe exists to show: on a device, blocking pageable copies cost the submitting
// thread a real share of the run, and pinned buffers with streams take it back.
TEST(MetricsE2E, SyncPageableWaitsOnCopiesMoreThanAsyncPinned) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine: GPU test skipped (run it on the device)";
  const Measured sync = run_with_trace("gpu-sync", "--set copy.mode=sync --set copy.memory=pageable");
  const Measured async = run_with_trace("gpu-async", "--set copy.mode=async --set copy.memory=pinned --set copy.streams=2");
  const double sync_share = sync.report.at("copy_wait_share"), async_share = async.report.at("copy_wait_share");
  EXPECT_GT(sync_share, 0.05);
  EXPECT_GT(sync_share, 2 * async_share) << "sync " << sync_share << ", async " << async_share;
}

}  // namespace
}  // namespace vidpipe
