// The bench.* keys, read by `vidpipe bench` (app/tools/bench.*). They live in the core's
// Config because one YAML file holds every section.
#pragma once
#include <string>
#include <vector>

namespace vidpipe {

template <class S>
class Keys;

struct BenchConfig {
  std::vector<int> streams{2, 4};  // async modes to run besides 1 stream
  int batch = 4;                   // the batch rung (1: none)
  int preload = 0;                 // > 0: the same ladder again on this many preloaded frames
  std::string json = "bench.json";
  std::string chart = "bench.png";
};

void declare_keys(Keys<BenchConfig>& keys);

}  // namespace vidpipe
