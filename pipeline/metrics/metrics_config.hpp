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
  std::string detections;  // JSON Lines of every frame's faces; empty: none
  bool live = true;
  std::string listen;  // host:port of the HTTP endpoint (/metrics, /report); empty: none
};

// metrics.listen split: port 0 lets the system choose one (the log line names it).
struct ListenAddress {
  std::string host;
  int port = 0;
};
// Throws a std::string (the key loader's way of saying what is wrong) for anything but host:port.
ListenAddress parse_listen(const std::string& text);

void declare_keys(Keys<MetricsConfig>& keys);

}  // namespace vidpipe
