// The metrics.* keys: what is measured and where the figures go. Declared in
// metrics_config.cpp.
#pragma once
#include <cstdint>
#include <string>

namespace vidpipe {

template <class S>
class Keys;

struct MetricsConfig {
  int warmup_frames = 30;
  std::int64_t keep_frames = 10'000;  // frames kept whole; older ones are folded (bounded memory)
  std::string report = "report.json";
  std::string trace;  // empty: none
  bool live = true;
};

void declare_keys(Keys<MetricsConfig>& keys);

}  // namespace vidpipe
