// Scoped NVTX range, so Nsight Systems shows each pipeline stage by name.
#pragma once
#include <nvtx3/nvToolsExt.h>

namespace vidpipe {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace vidpipe
