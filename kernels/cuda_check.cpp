#include "cuda_check.hpp"

namespace vidpipe {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  throw CudaError(code, std::string("CUDA error ") + cudaGetErrorName(code) + " (" +
                            cudaGetErrorString(code) + ") in " + call + " at " + file + ":" +
                            std::to_string(line));
}

}  // namespace vidpipe
