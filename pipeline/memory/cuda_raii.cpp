#include "memory/cuda_raii.hpp"

namespace vidpipe::cuda {

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error for later calls
    return 0;
  }
  return count;
}

}  // namespace vidpipe::cuda
