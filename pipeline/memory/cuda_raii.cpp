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

void start_device(int device) {
  CUDA_CHECK(cudaSetDevice(device));
  // Flags can only be set before the context exists; a context made earlier (by another
  // part of the process) keeps its own.
  const cudaError_t flags = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
  if (flags != cudaSuccess && flags != cudaErrorSetOnActiveProcess) CUDA_CHECK(flags);
  cudaGetLastError();
  CUDA_CHECK(cudaFree(nullptr));
}

}  // namespace vidpipe::cuda
