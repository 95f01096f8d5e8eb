// CUDA_CHECK: every runtime call goes through it, so a failure throws with the call,
// file:line and CUDA's own message instead of surfacing later as garbage.
#pragma once
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace vidpipe {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

}  // namespace vidpipe

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    const cudaError_t vp_cuda_status_ = (call);                                \
    if (vp_cuda_status_ != cudaSuccess)                                        \
      ::vidpipe::throw_cuda_error(vp_cuda_status_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: catches bad launch configurations at the launch site.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
