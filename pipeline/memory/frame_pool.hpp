// A fixed ring of equal-size host buffers, allocated once. Buffers are handed out as
// FFmpeg AVBufferRefs: when the last reference goes (decoder, pipeline or encoder,
// on whatever thread) the buffer returns to the pool. acquire() blocks while every
// buffer is in use, which is what throttles the reader when the GPU falls behind.
#pragma once
extern "C" {
#include <libavutil/buffer.h>
}

#include <chrono>
#include <cstddef>
#include <memory>

#include "memory/host_memory.hpp"

namespace vidpipe {

class FramePool {
 public:
  FramePool(std::size_t count, std::size_t bytes_each, HostMemory memory);
  ~FramePool();
  FramePool(const FramePool&) = delete;
  FramePool& operator=(const FramePool&) = delete;

  // Blocks until a buffer is free; nullptr after `timeout` or once cancel() was called.
  AVBufferRef* acquire(std::chrono::milliseconds timeout);
  // Wakes every waiter with nullptr and makes later acquires fail at once.
  void cancel();

  bool owns(const AVBufferRef* buf) const;
  std::size_t capacity() const;
  std::size_t free_count() const;
  std::size_t buffer_bytes() const;
  HostMemory memory() const;
  // Total time callers spent blocked in acquire().
  double wait_seconds() const;
  // Threads blocked in acquire() right now.
  int waiters() const;

  struct State;  // defined in frame_pool.cpp; public so buffer leases can name it

 private:
  std::shared_ptr<State> state_;  // shared with every outstanding buffer
};

}  // namespace vidpipe
