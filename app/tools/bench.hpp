// `vidpipe bench`: one input through each copy mode in one process, as one table.
#pragma once
#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "run/pipeline.hpp"

namespace vidpipe {

struct BenchRow {
  std::string mode;
  RunResult result;
  double speedup = 0;  // fps over the first row's (sync pageable)
};

struct BenchOutcome {
  std::vector<BenchRow> rows;
  std::vector<std::string> notes;  // modes left out, and why
  nlohmann::json json;
};

// The modes: sync pageable, sync pinned, async pinned x1, async pinned xN for each N in
// bench.streams. A trace path (metrics.trace) gets one file per mode: <stem>.<mode>.json.
BenchOutcome run_bench(const Config& base, const std::atomic<bool>* stop);

std::string bench_table(const BenchOutcome& outcome);
void write_bench_chart(const BenchOutcome& outcome, const std::string& path);

}  // namespace vidpipe
