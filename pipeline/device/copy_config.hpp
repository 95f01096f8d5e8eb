// The copy.* keys: how frames cross between host and device, the subject of vidpipe.
// Declared in copy_config.cpp; the executors take this struct whole.
#pragma once
#include <cstdint>

#include "memory/host_memory.hpp"

namespace vidpipe {

template <class S>
class Keys;

enum class CopyMode { sync, async };
std::string_view to_string(CopyMode mode);

struct CopyConfig {
  CopyMode mode = CopyMode::async;
  HostMemory memory = HostMemory::pinned;
  int streams = 2;
  int batch_size = 1;
  std::int64_t chunk_bytes = 0;  // 0: one copy per frame
  double batch_timeout_ms = 0;   // 0: a quarter of the fastest input's frame period, at most 10 ms
};

void declare_keys(Keys<CopyConfig>& keys);

}  // namespace vidpipe
