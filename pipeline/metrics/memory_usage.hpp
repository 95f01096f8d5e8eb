// Process and device memory in use, for the report (a soak run must not grow).
#pragma once
#include <cstdint>
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
// growth over a long run shows, in a handful of samples however long it is.
class MemoryLog {
 public:
  MemoryLog(std::int64_t warmup_frames, bool gpu);
  void on_frame(std::int64_t frames_out);  // sink thread
  // The sample taken when the warm-up ended (the start one, if it never did).
  const MemorySample& after_warmup() const { return samples_.size() > 1 ? samples_[1] : samples_.front(); }
  const std::vector<MemorySample>& samples() const { return samples_; }  // [0]: before the first frame

 private:
  bool gpu_;
  std::int64_t next_at_;
  std::vector<MemorySample> samples_;
};

}  // namespace vidpipe
