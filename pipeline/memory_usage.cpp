#include "memory_usage.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <fstream>

#include "cuda_check.hpp"

namespace vidpipe {

double resident_mb() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

double device_used_mb() {
  std::size_t free = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return static_cast<double>(total - free) / (1 << 20);
}

}  // namespace vidpipe
