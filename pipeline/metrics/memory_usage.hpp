// Process and device memory in use, for the report (a soak run must not grow).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace vidpipe {

double resident_mb();     // this process's resident set, from /proc/self/statm
double device_used_mb();  // total - free on the current CUDA device; NaN if it cannot say

struct MemorySample {
  std::int64_t frames = 0;  // frames out of the sink when it was taken
  double rss_mib = 0, device_mib = 0;
};

MemorySample sample_memory(std::int64_t frames, bool gpu);

// Samples when the warm-up ends and at every doubling of the frame count after it:
// growth over a long run shows, in a handful of samples however long it is. The sink
// thread samples; the metrics endpoint reads while it does.
class MemoryLog {
 public:
  MemoryLog(std::int64_t warmup_frames, bool gpu);
  void on_frame(std::int64_t frames_out);  // sink thread
  // The sample taken when the warm-up ended (the start one, if it never did).
  MemorySample after_warmup() const;
  std::vector<MemorySample> samples() const;  // [0]: before the first frame

 private:
  bool gpu_;
  std::atomic<std::int64_t> next_at_;  // checked on every frame without the lock
  mutable std::mutex mutex_;
  std::vector<MemorySample> samples_;
};

}  // namespace vidpipe
