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
  // `bench --density`: live copies of the input, 1, 2, 4, ... of them, until one fails.
  double latency_ms = 100;      // a step holds when no frame is dropped and p99 latency is at most this
  double density_seconds = 10;  // of video each input plays at each step
  int density_max = 128;        // the most inputs tried
  int density_refine = 2;       // halvings between the most held and the fewest not held
  bool density_stagger = true;  // the copies start out of step (input.stagger)
  std::string json = "bench.json";
  std::string chart = "bench.png";
};

void declare_keys(Keys<BenchConfig>& keys);

}  // namespace vidpipe
