#include "tools/bench.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "tools/bar_chart.hpp"
#include "memory/cuda_raii.hpp"

namespace vidpipe {
namespace {

std::string file_safe(std::string s) {
  for (char& c : s)
    if (c == ' ') c = '-';
  return s;
}

std::string trace_path_for(const std::string& trace, const std::string& mode) {
  if (trace.empty()) return "";
  const std::filesystem::path p(trace);
  return (p.parent_path() / (p.stem().string() + "." + file_safe(mode) + p.extension().string())).string();
}

}  // namespace

BenchOutcome run_bench(const Config& base, const std::atomic<bool>* stop) {
  std::vector<Config> modes;
  auto add = [&](CopyMode mode, HostMemory memory, int streams) {
    Config c = base;
    c.copy.mode = mode;
    c.copy.memory = memory;
    c.copy.streams = streams;
    modes.push_back(c);
  };
  add(CopyMode::sync, HostMemory::pageable, 1);
  add(CopyMode::sync, HostMemory::pinned, 1);
  add(CopyMode::async, HostMemory::pinned, 1);
  for (int n : base.bench.streams)
    if (n != 1) add(CopyMode::async, HostMemory::pinned, n);

  BenchOutcome out;
  // NVDEC removes the H2D copy altogether: the row shows what is left when it goes.
  if (cuda::device_count() > base.gpu.device && base.device != DeviceChoice::cpu) {
    Config c = modes.back();
    c.reader.decoder = Decoder::nvdec;
    modes.push_back(c);
  } else {
    out.notes.push_back("nvdec: no CUDA device here, so no nvdec row");
  }
  for (Config& c : modes) {
    if (stop && stop->load()) break;
    const std::string mode = mode_label(c);
    c.metrics.trace = trace_path_for(base.metrics.trace, mode);
    spdlog::info("bench: {}", mode);
    RunResult result = run_pipeline(c, stop);
    if (result.error) std::rethrow_exception(result.error);
    // The label as run: on the CPU path "pinned" falls back to pageable.
    BenchRow row{result.mode, std::move(result), 0};
    out.rows.push_back(std::move(row));
  }
  const double base_fps = out.rows.empty() ? 0 : out.rows.front().result.summary.fps;
  nlohmann::json rows = nlohmann::json::array();
  for (BenchRow& r : out.rows) {
    const Summary& s = r.result.summary;
    r.speedup = base_fps > 0 ? s.fps / base_fps : 0;
    rows.push_back({{"mode", r.mode}, {"fps", s.fps}, {"speedup", r.speedup}, {"copy_wait_share", s.copy_wait_share},
                    {"gpu_busy_share", s.gpu_busy_share}, {"h2d_gbps", s.h2d_gbps}, {"d2h_gbps", s.d2h_gbps},
                    {"p99_latency_ms", s.latency.p99_ms}, {"report", r.result.report}});
  }
  out.json = {{"input", base.input.uri},
              {"device", out.rows.empty() ? "" : out.rows.front().result.device},
              {"baseline", out.rows.empty() ? "" : out.rows.front().mode},
              {"rows", rows},
              {"notes", out.notes}};
  return out;
}

std::string bench_table(const BenchOutcome& o) {
  std::string t = fmt::format("{:<22} {:>8} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9}\n", "mode", "fps", "speed-up",
                              "copy-wait", "gpu busy", "H2D GB/s", "D2H GB/s", "p99 ms");
  for (const BenchRow& r : o.rows) {
    const Summary& s = r.result.summary;
    t += fmt::format("{:<22} {:>8.1f} {:>8.2f}x {:>9.1f}% {:>8.1f}% {:>9.1f} {:>9.1f} {:>9.1f}\n", r.mode, s.fps,
                     r.speedup, 100 * s.copy_wait_share, 100 * s.gpu_busy_share, s.h2d_gbps, s.d2h_gbps,
                     s.latency.p99_ms);
  }
  for (const std::string& n : o.notes) t += "note: " + n + "\n";
  return t;
}

void write_bench_chart(const BenchOutcome& o, const std::string& path) {
  std::vector<std::string> labels;
  ChartPanel fps{"frames per second (higher is better)", {}, "{:.1f}"};
  ChartPanel wait{"copy-wait share, % of wall time (lower is better)", {}, "{:.1f}%", true};
  for (const BenchRow& r : o.rows) {
    labels.push_back(r.mode);
    fps.values.push_back(r.result.summary.fps);
    wait.values.push_back(100 * r.result.summary.copy_wait_share);
  }
  const std::string device = o.json.value("device", "");
  write_bar_chart(path, "vidpipe bench on " + device + ": " + o.json.value("input", ""), labels, {fps, wait});
}

}  // namespace vidpipe
