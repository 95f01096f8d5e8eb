// `vidpipe copybench`: host<->device copy bandwidth over sizes, stream counts,
// memory kinds and directions, and the rules of thumb that motivated vidpipe,
// each marked held or not on this machine.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vidpipe {

struct CopyBenchOptions {
  std::vector<std::size_t> sizes;   // bytes; default 64 KB .. 512 MB in powers of 4 (plus 512 MB)
  std::vector<int> streams{1, 2, 3, 4, 5, 6, 7, 8};
  std::size_t chunk_bytes = 8u << 20;  // piece size for the chunked rows
  int repeats = 5;
  bool cpu = false;                  // memcpy instead of CUDA (no device)
};

struct CopyMeasurement {
  std::string memory;     // pinned | pageable | registered
  std::string direction;  // h2d | d2h
  std::string method;     // sync | async | chunked
  std::size_t bytes = 0;
  int streams = 1;
  double ms = 0;          // median of the repeats
  double gbps = 0;
};

struct RuleVerdict {
  std::string rule;
  bool held = false;
  bool measured = true;  // false: no size in the rule's range was measured, so no verdict
  std::string evidence;
};

// copybench.json's layout (docs/copybench.schema.json); raised when a key is renamed or removed.
inline constexpr int copybench_schema_version = 1;

struct CopyBenchResult {
  std::string device;
  int copy_engines = 0;
  std::vector<CopyMeasurement> rows;
  std::vector<RuleVerdict> verdicts;
  nlohmann::json json() const;
};

std::vector<std::size_t> default_copy_sizes();
CopyBenchResult run_copybench(const CopyBenchOptions& options);
std::string copybench_table(const CopyBenchResult& r);

}  // namespace vidpipe
