// vidpipe bench, copybench and --trace: what they print and write.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <map>
#include <set>

#include "cli_runner.hpp"
#include "memory/cuda_raii.hpp"
#include "test_media.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {
namespace {

using test::read_json;
using test::vidpipe;

// How the bench table prints an fps value.
std::string fmt_fps(double fps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", fps);
  return buf;
}

std::string clip() { return test::make_clip("bench.mp4", 320, 240, 40, "-c:v libx264 -pix_fmt yuv420p"); }

// Whether charts can be drawn here: Debian's python3 with matplotlib, as setup installs
// (the GPU machine's bundle may have none; the commands then say so).
bool charts_drawable() { return test::run_command("/usr/bin/python3 -c 'import matplotlib' 2>/dev/null") == 0; }

// The chart the command says it wrote: a PNG of a legible size that is not a blank canvas.
// Where no matplotlib is found, the command says why there is no chart instead.
void expect_chart(const test::CommandResult& r, const std::string& path) {
  if (!charts_drawable()) {
    EXPECT_NE(r.output.find("no chart: "), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(path));
    return;
  }
  EXPECT_NE(r.output.find("chart: " + path), std::string::npos) << r.output;
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  ReaderOptions ro;
  ro.uri = path;
  ro.memory = HostMemory::pageable;
  VideoReader reader(ro);
  EXPECT_GE(reader.info().width, 900);
  EXPECT_GE(reader.info().height, 300);
  auto f = reader.next();
  ASSERT_TRUE(f);
  std::set<std::uint8_t> lumas;
  for (int y = 0; y < reader.layout().height; ++y)
    for (int x = 0; x < reader.layout().width; ++x) lumas.insert(f->data()[y * reader.layout().pitch[0] + x]);
  EXPECT_GT(lumas.size(), 20u) << path << " looks blank";
}

TEST(BenchE2E, TableJsonAndChartAgree) {
  const std::string dir = test::scratch_dir();
  const auto r = vidpipe("bench --input " + clip() + " --set input.max_frames=80 --set metrics.warmup_frames=5" +
                         " --set gpu.inference=false --set bench.json=" + dir + "/b.json --set bench.chart=" + dir +
                         "/b.png --set bench.streams=[3,4]");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = read_json(dir + "/b.json");
  const auto& rows = j.at("rows");
  // The ladder: each rung one change from the one below; with a GPU an NVDEC rung ends it,
  // without one a note says why not.
  const bool gpu = cuda::device_count() > 0;
  const std::vector<std::string> rungs = {"naive", "+ pinned", "+ async", "+ 3 streams", "+ 4 streams", "+ batch 4"};
  ASSERT_EQ(rows.size(), rungs.size() + (gpu ? 1 : 0));
  for (std::size_t i = 0; i < rungs.size(); ++i) EXPECT_EQ(rows[i].at("rung"), rungs[i]);
  if (gpu) EXPECT_EQ(rows[6].at("mode"), "async pinned x4 b4 nvdec");
  EXPECT_EQ(rows[0].at("mode"), "sync pageable");
  EXPECT_EQ(rows[5].at("report").at("config").at("copy").at("batch_size"), 4);
  const double base = rows[0].at("fps");
  double previous = base;
  for (const auto& row : rows) {
    ASSERT_EQ(row.at("status"), "ok") << row.dump();
    const double fps = row.at("fps");
    EXPECT_GT(fps, 0) << row.at("mode");
    EXPECT_NEAR(row.at("speedup").get<double>(), fps / base, 1e-9) << row.at("mode");
    EXPECT_NEAR(row.at("speedup_over_previous").get<double>(), fps / previous, 1e-9) << row.at("mode");
    previous = fps;
    for (const char* share : {"copy_wait_share", "gpu_busy_share"}) {
      EXPECT_GE(row.at(share).get<double>(), 0.0);
      EXPECT_LE(row.at(share).get<double>(), 1.0);
    }
    // Async rungs (NVDEC's aside) carry the forecast made from the limits measured first.
    const auto& copy = row.at("report").at("config").at("copy");
    if (copy.at("mode") == "async" && row.at("report").at("config").at("reader").at("decoder") != "nvdec") {
      EXPECT_GT(row.at("predicted_fps").get<double>(), 0) << row.at("mode");
      EXPECT_FALSE(row.at("predicted_bound").get<std::string>().empty()) << row.at("mode");
      EXPECT_GT(row.at("limit_share").get<double>(), 0) << row.at("mode");
    }
    EXPECT_EQ(row.at("bottleneck"), row.at("report").at("bottleneck").at("stage"));
    EXPECT_EQ(row.at("report").at("frames"), 80);
    EXPECT_DOUBLE_EQ(row.at("report").at("fps").get<double>(), fps);
    // The printed table carries the same figures.
    EXPECT_NE(r.output.find(fmt_fps(fps)), std::string::npos) << "table lacks " << fps << ":\n" << r.output;
  }
  if (!gpu) EXPECT_NE(r.output.find("note: nvdec: no CUDA device"), std::string::npos) << r.output;
  // The limits: the decoder alone, and the stage alone at each async rung's streams and batch.
  const auto& limits = j.at("ladders").at(0).at("limits");
  EXPECT_GT(limits.at("decoder_fps").get<double>(), 0);
  std::set<std::pair<int, int>> shapes;
  for (const auto& s : limits.at("gpu_stage_fps")) {
    EXPECT_GT(s.at("fps").get<double>(), 0);
    shapes.insert({s.at("streams").get<int>(), s.at("batch").get<int>()});
  }
  EXPECT_EQ(shapes, (std::set<std::pair<int, int>>{{1, 1}, {3, 1}, {4, 1}, {4, 4}}));
  EXPECT_EQ(limits.at("link_both_fps").get<double>() > 0, gpu);
  EXPECT_NE(r.output.find("decoder alone"), std::string::npos) << r.output;
  expect_chart(r, dir + "/b.png");
}

// Rungs that fail (here: a pool of 4 buffers, fewer than the decoder holds) are each
// reported with their reason, and the ladder goes on: every CPU-decoded rung (the NVDEC
// rung, on a GPU, needs no host buffer and runs), then the preloaded ladder, which needs
// no pool buffer per frame.
TEST(BenchE2E, AFailedRungIsReportedAndTheLadderGoesOn) {
  const std::string dir = test::scratch_dir();
  const auto r = vidpipe("bench --input " + clip() + " --set metrics.warmup_frames=5 --set gpu.inference=false" +
                         " --set reader.pool_frames=4 --set reader.pool_wait_ms=1000 --set reader.threads=1" +
                         " --set input.max_frames=60 --set bench.json=" + dir +
                         "/fail.json --set bench.chart= --set bench.streams=[2] --preload 2");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = read_json(dir + "/fail.json");
  const auto& decoded = j.at("ladders").at(0).at("rows");
  ASSERT_GE(decoded.size(), 5u);
  for (const auto& row : decoded) {
    if (row.at("rung") == "+ NVDEC") {  // the GPU's decoder writes device memory: no host pool
      EXPECT_EQ(row.at("status"), "ok") << row.dump();
      continue;
    }
    EXPECT_EQ(row.at("status"), "failed") << row.dump();
    EXPECT_NE(row.value("error", "").find("frame pool exhausted"), std::string::npos) << row.dump();
  }
  EXPECT_NE(r.output.find("failed: "), std::string::npos) << r.output;
  const auto& preloaded = j.at("ladders").at(1);
  EXPECT_EQ(preloaded.at("name"), "preloaded 2");
  ASSERT_GE(preloaded.at("rows").size(), 5u);
  for (const auto& row : preloaded.at("rows")) {
    ASSERT_EQ(row.at("status"), "ok") << row.dump();
    EXPECT_EQ(row.at("report").at("preloaded"), 2);
  }
}

// A pool too small for the batches to fill (6 buffers, batches of 4, the decoder holding
// some) once deadlocked the batch rung until the pool's timeout; a batch now goes with what
// has come once its oldest frame has waited copy.batch_timeout_ms, and every frame is out.
TEST(BenchE2E, APoolSmallerThanABatchDoesNotStallTheBatchRung) {
  const std::string dir = test::scratch_dir();
  const auto r = vidpipe("bench --input " + clip() + " --set metrics.warmup_frames=5 --set gpu.inference=false" +
                         " --set reader.pool_frames=6 --set reader.threads=1 --set input.max_frames=60 --set bench.json=" +
                         dir + "/small-pool.json --set bench.chart= --set bench.streams=[2]");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = read_json(dir + "/small-pool.json");
  const auto& rows = j.at("ladders").at(0).at("rows");
  ASSERT_GE(rows.size(), 5u);
  EXPECT_EQ(rows[4].at("rung"), "+ batch 4");
  ASSERT_EQ(rows[4].at("status"), "ok") << rows[4].dump();
  EXPECT_EQ(rows[4].at("report").at("frames"), 60);
}

// A rung shorter than its warm-up says its figures mean little, in the table, the brief
// comparison and the JSON.
TEST(BenchE2E, RungsShorterThanTheWarmupSaySo) {
  const std::string dir = test::scratch_dir();
  const auto r = vidpipe("bench --input " + clip() + " --set input.max_frames=10 --set metrics.warmup_frames=30" +
                         " --set gpu.inference=false --set bench.streams=[1] --set bench.batch=1 --set bench.json=" +
                         dir + "/short.json --set bench.chart=");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("naive: 10 frames, fewer than the warm-up (metrics.warmup_frames), so its figures are not "
                          "meaningful"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("these figures are not meaningful"), std::string::npos) << r.output;
  for (const auto& row : read_json(dir + "/short.json").at("rows"))
    if (row.at("status") == "ok") EXPECT_TRUE(row.at("warmup_included").get<bool>()) << row.at("rung");
}

TEST(BenchE2E, TraceHasSpansOnEveryTrack) {
  const bool gpu = cuda::device_count() > 0;
  const std::string trace = test::scratch_dir() + "/t.json";
  const auto r = vidpipe("run --input " + clip() + " --set sink.kind=null --set copy.streams=3 --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = read_json(trace);
  std::map<int, std::string> names;
  std::map<int, int> spans;
  std::set<std::string> span_names;
  for (const auto& e : j.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") names[e.at("tid")] = e.at("args").at("name");
    if (e.at("ph") != "X") continue;
    EXPECT_GE(e.at("ts").get<double>(), 0.0);
    EXPECT_GE(e.at("dur").get<double>(), 0.0);
    ++spans[e.at("tid")];
    span_names.insert(e.at("name"));
  }
  int stream_tracks = 0;
  for (const auto& [tid, name] : names) {
    EXPECT_GT(spans[tid], 0) << "track '" << name << "' has no spans";
    stream_tracks += name.rfind(gpu ? "CUDA stream" : "CPU compute slot", 0) == 0;
    if (!gpu) EXPECT_EQ(name.find("CUDA"), std::string::npos) << "a CPU run's trace names a CUDA stream";
  }
  EXPECT_EQ(stream_tracks, gpu ? 3 : 1) << "one track per stream used";
  for (const char* s : {"decode", "sink", "H2D", "preprocess", "inference", "D2H"}) EXPECT_TRUE(span_names.count(s)) << s;
  const std::string png = test::scratch_dir() + "/t.png";
  const auto chart = vidpipe("trace-png --trace " + trace + " --png " + png + " --start 0 --window 100");
  ASSERT_EQ(chart.code, charts_drawable() ? 0 : 3) << chart.output;  // the chart is its output
  expect_chart(chart, png);
  // --json: the window as JSON on stdout, as in every command.
  const std::string window_json = test::scratch_dir() + "/window.json";
  ASSERT_EQ(test::run_command(test::vidpipe_command_line("trace-png --json --trace " + trace + " --png " + png +
                                                         " --start 0 --window 100") + " > " + window_json + " 2>/dev/null"),
            charts_drawable() ? 0 : 3);
  const nlohmann::json window = read_json(window_json);
  EXPECT_EQ(window.at("window_ms"), 100.0);
  EXPECT_EQ(window.at("tracks").size(), names.size()) << window.dump();
  EXPECT_NE(window.at("title").get<std::string>().find(gpu ? "vidpipe on " : "vidpipe on cpu, async"), std::string::npos)
      << window.at("title");
  // A chart that cannot be drawn (its folder is missing: the script fails) is the command's failure.
  const auto no_chart = vidpipe("trace-png --trace " + trace + " --png /no/such/folder/t.png --start 0 --window 100");
  EXPECT_EQ(no_chart.code, 3) << no_chart.output;
  EXPECT_NE(no_chart.output.find("no chart: "), std::string::npos) << no_chart.output;
  // The table: every track, busy no longer than the window.
  for (const auto& [tid, name] : names) {
    const std::regex row(name + R"(\s+([0-9.]+)\s+([0-9.]+)%\s+([0-9]+))");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(chart.output, m, row)) << name << " missing from:\n" << chart.output;
    EXPECT_LE(std::stod(m[1]), 100.0) << name;
    EXPECT_LE(std::stod(m[2]), 100.0) << name;
  }
}

// Bad arguments are one line naming the option or the file, exit 2, and no PNG.
TEST(BenchE2E, TracePngRejectsBadArguments) {
  const std::string dir = test::scratch_dir();
  const std::string trace = dir + "/bad-args.json";
  ASSERT_EQ(vidpipe("run --input " + clip() + " --set sink.kind=null --set gpu.inference=false --report '' --trace " +
                    trace).code, 0);
  std::ofstream(dir + "/not-a-trace.json") << R"({"rows": []})";
  struct Bad {
    std::string args, says;
    int code;  // 2: the arguments; 3: the file they name (README "Exit codes")
  };
  for (const Bad& b : std::vector<Bad>{
           {"--trace " + trace + " --window -5", "--window: must be more than 0 ms, got -5", 2},
           {"--trace " + trace + " --window 0", "--window: must be more than 0 ms", 2},
           {"--trace " + trace + " --start -1", "--start: must be 0 s or later", 2},
           {"--trace " + trace + " --start 3600", "--start: 3600 s is past the trace's end", 2},
           {"--trace " + dir + "/not-a-trace.json", "is not a trace written by vidpipe --trace", 3},
           {"--trace " + dir + "/absent.json", "--trace: cannot read", 3}}) {
    const auto r = vidpipe("trace-png --png " + dir + "/bad.png " + b.args);
    EXPECT_EQ(r.code, b.code) << b.args << "\n" << r.output;
    EXPECT_NE(r.output.find(b.says), std::string::npos) << b.args << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << "more than one line:\n" << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir + "/bad.png"));
  }
}

// Without matplotlib the command still prints its table and writes its JSON, and says in
// one warning why there is no chart (as on the GPU machine, whose bundle has no Python).
TEST(CopyBenchE2E, WithoutMatplotlibTheJsonAndTableStillCome) {
  if (!charts_drawable()) GTEST_SKIP() << "no python3 with matplotlib here to hide it from";
  const std::string dir = test::scratch_dir();
  const std::string python = dir + "/python-without-matplotlib";
  std::ofstream(python) << "#!/bin/sh\n"
                           "exec /usr/bin/python3 -c 'import runpy, sys; sys.modules[\"matplotlib\"] = None; "
                           "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name=\"__main__\")' \"$@\"\n";
  std::filesystem::permissions(python, std::filesystem::perms::owner_all);
  const std::string command = "VIDPIPE_PYTHON=" + python + " " +
                              test::vidpipe_command_line("copybench --cpu --sizes 64K 1M --streams 1 --repeats 1 "
                                                         "--out " + dir + "/plain.json --chart " + dir + "/plain.png");
  const int code = test::run_command(command + " > " + dir + "/plain.log 2>&1");
  const std::string output = test::file_bytes(dir + "/plain.log");
  EXPECT_EQ(code, 0) << output;
  EXPECT_NE(output.find("no chart: " + python + " has no matplotlib"), std::string::npos) << output;
  EXPECT_NE(output.find("the figures are in " + dir + "/plain.json"), std::string::npos) << output;
  EXPECT_NE(output.find("rules of thumb:"), std::string::npos) << output;
  EXPECT_EQ(read_json(dir + "/plain.json").at("rows").size(), 2u * 2 * 2);
  EXPECT_FALSE(std::filesystem::exists(dir + "/plain.png"));
}

// An endless run must not hold every frame: past metrics.keep_frames the figures are
// folded and the trace keeps the newest frames only.
TEST(BenchE2E, LongRunKeepsTheLastFramesOnlyAndSamplesMemory) {
  const std::string dir = test::scratch_dir();
  const auto r = vidpipe("run --input " + clip() + " --set sink.kind=null --set gpu.inference=false" +
                         " --set input.loop=true --set input.max_frames=250 --set metrics.keep_frames=100" +
                         " --set metrics.warmup_frames=10 --trace " + dir + "/long.json --report " + dir + "/long-report.json");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto report = read_json(dir + "/long-report.json");
  EXPECT_EQ(report.at("frames"), 250);
  EXPECT_EQ(report.at("frames_measured"), 240);
  EXPECT_EQ(report.at("frames_kept"), 100);
  std::vector<std::int64_t> sampled_at;
  for (const auto& m : report.at("memory").at("samples")) {
    sampled_at.push_back(m.at("frames"));
    EXPECT_GT(m.at("rss_mib").get<double>(), 0.0);
  }
  EXPECT_EQ(sampled_at, (std::vector<std::int64_t>{0, 10, 20, 40, 80, 160, 250}));
  const auto trace = read_json(dir + "/long.json");
  EXPECT_EQ(trace.at("metadata").at("frames"), 250);
  EXPECT_EQ(trace.at("metadata").at("frames_in_trace"), 100);
  std::set<std::int64_t> traced;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("name") == "sink") traced.insert(e.at("args").at("frame").get<std::int64_t>());
  EXPECT_EQ(traced.size(), 100u);
}

TEST(CopyBenchE2E, CpuPathGivesACompleteTable) {
  const std::string dir = test::scratch_dir();
  const auto r = vidpipe("copybench --cpu --sizes 64K 1M 4M 64M --streams 1 2 --repeats 2 --out " + dir +
                         "/c.json --chart " + dir + "/c.png");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = read_json(dir + "/c.json");
  // pageable only (no CUDA) x 2 directions x 4 sizes x (sync + 2 stream counts), plus the
  // chunked row with 2 streams for the one size of 4 chunks or more (64M).
  EXPECT_EQ(j.at("rows").size(), 2u * (4 * 3 + 1));
  for (const auto& row : j.at("rows")) EXPECT_GT(row.at("GB_per_s").get<double>(), 0.0);
  EXPECT_EQ(j.at("schema_version"), 1);
  EXPECT_EQ(j.at("kind"), "copybench");
  ASSERT_EQ(j.at("rules").size(), 4u);
  for (const auto& rule : j.at("rules")) {
    // A rule with no measured size in its range has no verdict (null), never "NOT held".
    const bool measured = rule.at("evidence") != "no measured size in this rule's range";
    EXPECT_TRUE(measured ? rule.at("held").is_boolean() : rule.at("held").is_null()) << rule.dump();
    EXPECT_FALSE(rule.at("evidence").get<std::string>().empty());
  }
  EXPECT_NE(r.output.find("rules of thumb:"), std::string::npos);
  expect_chart(r, dir + "/c.png");
}

TEST(CopyBenchE2E, BadSizeIsAConfigError) {
  const auto r = vidpipe("copybench --cpu --sizes 12Q");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--sizes: '12Q' is not a size"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace vidpipe

namespace vidpipe {
namespace {

// bench --density on the CPU path: steps of 1, 2, 4 live inputs (and 3 where 4 is not held),
// each held or not by the rule it prints (no drop, p99 latency within bench.latency_ms); the
// doubling stops at the first that is not; the table, the JSON and the chart agree.
TEST(DensityE2E, StepsDoubleUntilOneIsNotHeldAndTheTableMatchesTheJson) {
  const std::string small = test::make_clip("density.mp4", 160, 120, 30, "-c:v libx264 -pix_fmt yuv420p -r 30");
  const std::string dir = test::scratch_dir(), json = dir + "/density.json", png = dir + "/density.png";
  std::filesystem::remove(json);
  const auto r = vidpipe("bench --density --input " + small + " --set device=cpu --set gpu.inference=false "
                         "--set bench.density_seconds=1 --set bench.density_max=4 --set bench.json=" + json +
                         " --set bench.chart=" + png);
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json j = read_json(json);
  EXPECT_EQ(j.at("kind"), "density");
  EXPECT_EQ(j.at("staggered"), true) << "copies start out of step unless bench.density_stagger is false";
  EXPECT_NE(r.output.find("started out of step"), std::string::npos) << r.output;
  const auto& steps = j.at("steps");
  ASSERT_FALSE(steps.empty());
  std::vector<int> doubling;  // the doubling steps run, up to the first not held
  int held = 0, first_not_held = 0, previous = 0;
  for (const auto& s : steps) {
    const int inputs = s.at("inputs");
    EXPECT_GT(inputs, previous) << "steps in order of inputs, each once";
    previous = inputs;
    const bool rule = s.at("error").is_null() && s.at("frames_dropped_measured") == 0 &&
                      s.at("latency_p99_ms").get<double>() <= j.at("latency_limit_ms").get<double>();
    EXPECT_EQ(s.at("held").get<bool>(), rule) << "step " << inputs;
    if (rule) held = std::max(held, inputs);
    if (!rule && first_not_held == 0) first_not_held = inputs;
    if ((inputs & (inputs - 1)) == 0) doubling.push_back(inputs);
    EXPECT_NEAR(s.at("source_fps").get<double>(), 30.0, 0.01);
    EXPECT_LE(s.at("frames_dropped_measured").get<int>(), s.at("frames_dropped").get<int>());
    if (s.at("error").is_null()) {
      EXPECT_GT(s.at("decoders_alone_fps").get<double>(), 0.0);
      EXPECT_GT(s.at("flat_out_fps").get<double>(), 0.0);
    }
  }
  for (std::size_t k = 0; k < doubling.size(); ++k) EXPECT_EQ(doubling[k], 1 << k) << "doubling from 1";
  const int last_doubling = doubling.back();
  EXPECT_TRUE(last_doubling == 4 || last_doubling == first_not_held) << "the doubling stops at the first not held";
  // The one step between 2 and 4 is run exactly when 2 was held and 4 was not.
  const bool three_run = std::any_of(steps.begin(), steps.end(), [](const auto& s) { return s.at("inputs") == 3; });
  EXPECT_EQ(three_run, held >= 2 && first_not_held == 4) << r.output;
  EXPECT_EQ(j.at("held_inputs"), held);
  if (first_not_held == 0) {
    EXPECT_TRUE(j.at("first_not_held").is_null());
  } else {
    EXPECT_EQ(j.at("first_not_held"), first_not_held);
    EXPECT_NE(r.output.find(fmt::format("first not held at {} inputs", first_not_held)), std::string::npos) << r.output;
  }
  // One 160x120 input at 30 fps with nothing to detect is held on any machine.
  EXPECT_TRUE(steps[0].at("held").get<bool>()) << r.output;
  EXPECT_NE(r.output.find("held in real time: " + std::to_string(held) + " input"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(png) || r.output.find("no chart") != std::string::npos) << r.output;
}

TEST(DensityE2E, AMissingInputIsAnInputError) {
  const auto r = vidpipe("bench --density --input /no/such/clip.mp4 --set device=cpu");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("/no/such/clip.mp4"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace vidpipe
