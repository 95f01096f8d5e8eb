// `vidpipe bench`: one input up a ladder of copy modes in one process, each rung one change
// from the one below (naive sync pageable, + pinned, + async, + streams, + batch, + NVDEC),
// so the table shows what each change wins. `bench.preload` adds the same ladder on frames
// preloaded into memory: the GPU side without the decoder.
#pragma once
#include <atomic>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "run/pipeline.hpp"
#include "tools/bench_limits.hpp"

namespace vidpipe {

struct BenchRow {
  std::string rung;  // what this rung adds: "naive", "+ pinned", "+ 4 streams", ...
  std::string mode;  // mode_label as run
  RunResult result;
  std::string error;               // non-empty: the rung failed and this says why
  double speedup = 0;              // fps over the ladder's first rung
  double speedup_over_previous = 0;  // fps over the rung below that ran
  double predicted_fps = 0;        // async rungs: forecast from the ladder's limits
  std::string predicted_bound;     // the limit the forecast says binds
  double limit_share = 0;          // async rungs: fps over the lowest limit (decoder, link, stage)
  bool ok() const { return error.empty(); }
};

struct BenchLadder {
  std::string name;  // "decoded" or "preloaded N"
  std::vector<BenchRow> rows;
  std::optional<BenchLimits> limits;  // measured before the rungs; absent if that failed
};

// bench.json's layout, the ladder's and bench --density's (docs/bench.schema.json); raised
// when a key is renamed or removed.
inline constexpr int bench_schema_version = 1;

struct BenchOutcome {
  std::vector<BenchLadder> ladders;
  std::vector<std::string> notes;  // rungs left out, and why
  nlohmann::json json;
};

// A trace path (metrics.trace) gets one file per mode: <stem>.<mode>.json.
BenchOutcome run_bench(const Config& base, const std::atomic<bool>* stop);

std::string bench_table(const BenchOutcome& outcome);
// A few lines per ladder: naive against the fastest rung, the ratio, and both verdicts.
std::string bench_brief(const BenchOutcome& outcome);

}  // namespace vidpipe
