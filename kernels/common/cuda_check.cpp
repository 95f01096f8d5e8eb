#include "common/cuda_check.hpp"

namespace vidpipe {
namespace {

// Errors after which the context is unusable: every later call fails the same way.
// This is what a device fault, an Xid or a GPU reset looks like to the process.
bool context_lost(cudaError_t code) {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorDevicesUnavailable:
      return true;
    default:
      return false;
  }
}

}  // namespace

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  std::string what = std::string("CUDA error ") + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ") in " +
                     call + " at " + file + ":" + std::to_string(line);
  if (context_lost(code))
    what += "; the GPU context is lost (device fault or reset): frames still on the GPU are lost, "
            "the rest were written";
  throw CudaError(code, what);
}

}  // namespace vidpipe
