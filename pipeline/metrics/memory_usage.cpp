#include "metrics/memory_usage.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace vidpipe {

double resident_mb() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

// NaN (null in the report) when the device cannot say, e.g. after a device fault:
// the report of a run that failed must still be written.
double device_used_mb() {
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) return std::nan("");
  return static_cast<double>(total - free) / (1 << 20);
}

}  // namespace vidpipe

namespace vidpipe {

MemorySample sample_memory(std::int64_t frames, bool gpu) { return {frames, resident_mb(), gpu ? device_used_mb() : 0.0}; }

MemoryLog::MemoryLog(std::int64_t warmup_frames, bool gpu)
    : gpu_(gpu), next_at_(std::max<std::int64_t>(warmup_frames, 1)), samples_{sample_memory(0, gpu)} {}

void MemoryLog::on_frame(std::int64_t frames_out) {
  if (frames_out < next_at_) return;
  const MemorySample sample = sample_memory(frames_out, gpu_);
  std::lock_guard lock(mutex_);
  samples_.push_back(sample);
  next_at_ = 2 * frames_out;
}

MemorySample MemoryLog::after_warmup() const {
  std::lock_guard lock(mutex_);
  return samples_.size() > 1 ? samples_[1] : samples_.front();
}

std::vector<MemorySample> MemoryLog::samples() const {
  std::lock_guard lock(mutex_);
  return samples_;
}

}  // namespace vidpipe
