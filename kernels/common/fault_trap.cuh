// A kernel that kills its CUDA context on purpose (__trap), so the reliability tests
// can see what a device fault mid-run does. It is what an Xid or a GPU reset looks
// like to a process: the error is sticky and every later call on the context fails.
// It computes nothing, so it has no CPU reference.
#pragma once
#include <cuda_runtime_api.h>

namespace vidpipe {

void launch_fault_trap(cudaStream_t stream);

}  // namespace vidpipe
