#include "device/copy_config.hpp"

#include "config/keys.hpp"

namespace vidpipe {

std::string_view to_string(CopyMode mode) { return mode == CopyMode::sync ? "sync" : "async"; }

void declare_keys(Keys<CopyConfig>& k) {
  k.choice("mode", &CopyConfig::mode, {{"sync", CopyMode::sync}, {"async", CopyMode::async}},
           "`sync`: one thread, blocking `cudaMemcpy` on the default stream, one frame at a time. `async`: "
           "reader, submit, completion and sink threads; copies and kernels queued on CUDA streams.");
  k.choice("memory", &CopyConfig::memory, {{"pinned", HostMemory::pinned}, {"pageable", HostMemory::pageable}},
           "host frame buffers: page-locked (`cudaHostAlloc`) or ordinary memory. On the CPU path pinned "
           "falls back to pageable.");
  k.integer("streams", &CopyConfig::streams, 1, 32,
            "CUDA streams in async mode; frame batch k goes to stream k mod N, two batches in flight per "
            "stream.");
  k.integer("batch_size", &CopyConfig::batch_size, 1, 64,
            "frames that share one kernel launch and one slot in async mode (sync mode always uses 1).");
  k.integer("chunk_bytes", &CopyConfig::chunk_bytes, 0, std::int64_t{1} << 32,
            "in async mode, split each frame's upload into pieces of this size spread over all streams; 0 "
            "copies each frame whole.");
  k.real("batch_timeout_ms", &CopyConfig::batch_timeout_ms, 0, 10000,
         "async mode: a batch goes when it holds `copy.batch_size` frames or when its oldest frame has waited "
         "this long (nvstreammux's batched-push-timeout), so batching adds at most this to a frame's latency "
         "and `batch_size` is a throughput knob. Frames of all inputs share batches in turn: an input that "
         "stalls holds no other back. 0: a quarter of the fastest input's frame period, at most 10 ms.");
}

}  // namespace vidpipe
