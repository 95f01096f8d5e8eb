#include "common/cuda_check.hpp"
#include "common/fault_trap.cuh"

namespace vidpipe {
namespace {

__global__ void fault_trap_kernel() { __trap(); }

}  // namespace

void launch_fault_trap(cudaStream_t stream) {
  fault_trap_kernel<<<1, 1, 0, stream>>>();
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
