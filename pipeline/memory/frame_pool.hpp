// A fixed ring of equal-size host buffers, allocated once. Buffers are handed out as
// FFmpeg AVBufferRefs: when the last reference goes (decoder, pipeline or encoder,
// on whatever thread) the buffer returns to the pool. acquire() blocks while every
// buffer is in use, which is what throttles the reader when the GPU falls behind.
//
// Pinning is slow (some 5 ms a 4K frame: a 4K pool took a quarter of a second on the
// H200's host), so a pool can be filled in the background: each buffer is handed out as
// soon as it exists, and the decoder starts on the first while the rest are pinned. The
// driver pins one allocation at a time and other CUDA calls wait behind it (the
// executor's set-up took as long as the pinning when both ran at once), so the owner
// says when to begin: start_filling(), once the run's other CUDA set-up is done. Pools
// filling at once take turns, a buffer each (fill_rounds.hpp).
#pragma once
extern "C" {
#include <libavutil/buffer.h>
}

#include <chrono>
#include <cstddef>
#include <memory>
#include <thread>

#include "memory/host_memory.hpp"

namespace vidpipe {

// How a pool gets its buffers: all before the constructor returns, or (pinned memory only)
// on a thread of the pool's own, with `cuda_device` current, from start_filling() on.
struct PoolFilling {
  bool background = false;
  int cuda_device = 0;
};

class FramePool {
 public:
  FramePool(std::size_t count, std::size_t bytes_each, HostMemory memory, PoolFilling filling = {});
  ~FramePool();
  FramePool(const FramePool&) = delete;
  FramePool& operator=(const FramePool&) = delete;

  // Blocks until a buffer is free; nullptr after `timeout`, once cancel() was called, or
  // when a background filling failed and no buffer is free.
  AVBufferRef* acquire(std::chrono::milliseconds timeout);
  // Begins a background filling (once; nothing for a pool filled in the constructor).
  // Until then acquire() waits.
  void start_filling();
  // Throws what stopped a background filling (CudaError), if anything did.
  void rethrow_filling_error() const;
  // Wakes every waiter with nullptr and makes later acquires fail at once.
  void cancel();

  bool owns(const AVBufferRef* buf) const;
  std::size_t capacity() const;
  std::size_t free_count() const;
  std::size_t buffer_bytes() const;
  HostMemory memory() const;
  // How long allocating (pinning) every buffer took; -1 while a background filling goes on
  // or before it starts (an NVDEC input's pool may never start).
  double filling_seconds() const;
  // Total time callers spent blocked in acquire().
  double wait_seconds() const;
  // Threads blocked in acquire() right now.
  int waiters() const;

  struct State;  // defined in frame_pool.cpp; public so buffer leases can name it

 private:
  std::shared_ptr<State> state_;  // shared with every outstanding buffer
  PoolFilling filling_;
  std::thread filler_;            // the background filling, once started
};

}  // namespace vidpipe
