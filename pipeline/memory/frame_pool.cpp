#include "memory/frame_pool.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

#include "common/cuda_check.hpp"
#include "memory/cuda_raii.hpp"
#include "memory/fill_rounds.hpp"

namespace vidpipe {

struct FramePool::State {
  std::vector<HostBuffer> buffers;  // all `count` slots from the start; a slot filled in the background is
                                    // written under `mutex` before its index goes on the free list
  std::vector<std::size_t> free_list;
  std::optional<CudaError> filling_error;  // what stopped a background filling
  std::size_t bytes_each = 0;
  HostMemory memory = HostMemory::pageable;
  bool cancelled = false;
  double wait_seconds = 0.0;
  double filling_seconds = -1.0;  // how long the whole pool took to allocate; -1 until it has
  int waiters = 0;
  mutable std::mutex mutex;
  std::condition_variable freed;

  void release(std::size_t index) {
    {
      std::lock_guard lock(mutex);
      free_list.push_back(index);
    }
    freed.notify_one();
  }
};

namespace {
// Keeps the pool's memory alive for as long as any buffer is referenced, even if
// the FramePool object itself has gone (the decoder may free frames late).
struct Lease {
  std::shared_ptr<FramePool::State> state;
  std::size_t index;
};
}  // namespace

namespace {

std::string pinning_advice(std::size_t count, std::size_t bytes_each) {
  const double phys_gib =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 30);
  return fmt::format("not enough host memory to pin {} frame buffers of {:.1f} MB ({:.1f} GiB; this machine has "
                     "{:.1f} GiB): lower copy.streams or copy.batch_size, or use copy.memory: pageable",
                     count, bytes_each / 1e6, static_cast<double>(count * bytes_each) / (1 << 30), phys_gib);
}

HostBuffer allocate(std::size_t count, std::size_t bytes_each, HostMemory memory) {
  try {
    return HostBuffer(bytes_each, memory);
  } catch (const CudaError& e) {
    if (e.code() != cudaErrorMemoryAllocation) throw;
    throw CudaError(e.code(), pinning_advice(count, bytes_each));
  }
}

// Pins the buffers one by one, each handed out as soon as it exists; stops at a cancel.
void fill_in_background(const std::shared_ptr<FramePool::State>& state, int cuda_device) {
  const std::size_t count = state->buffers.size();
  const auto started = std::chrono::steady_clock::now();
  try {
    cuda::start_device(cuda_device);  // current on this thread, with the pipeline's flags
    FillRounds::Member turn(FillRounds::shared());
    const auto cancelled = [&state] {
      std::lock_guard lock(state->mutex);
      return state->cancelled;
    };
    for (std::size_t i = 0; i < count; ++i) {
      if (!turn.wait_turn(cancelled)) return;
      HostBuffer buffer = allocate(count, state->bytes_each, state->memory);
      turn.made_one();
      {
        std::lock_guard lock(state->mutex);
        if (state->cancelled) return;
        state->buffers[i] = std::move(buffer);
        state->free_list.insert(state->free_list.begin(), i);  // handed out in the order made
      }
      state->freed.notify_one();
    }
    std::lock_guard lock(state->mutex);
    state->filling_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  } catch (const std::exception& e) {
    // Kept for the thread that runs out of buffers (rethrow_filling_error): it ends the run.
    const auto* cuda = dynamic_cast<const CudaError*>(&e);
    {
      std::lock_guard lock(state->mutex);
      state->filling_error = cuda ? *cuda : CudaError(cudaErrorMemoryAllocation, e.what());
    }
    state->freed.notify_all();
  }
}

}  // namespace

FramePool::FramePool(std::size_t count, std::size_t bytes_each, HostMemory memory, PoolFilling filling)
    : state_(std::make_shared<State>()), filling_(filling) {
  state_->bytes_each = bytes_each;
  state_->memory = memory;
  // Page-locked memory cannot be swapped: pinning most of RAM starves everything else
  // on the machine long before cudaHostAlloc says no, so refuse past half of it.
  const auto phys = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  if (memory == HostMemory::pinned && count * bytes_each > phys / 2)
    throw CudaError(cudaErrorMemoryAllocation, pinning_advice(count, bytes_each));
  state_->buffers.resize(count);
  if (filling.background && memory == HostMemory::pinned) return;  // start_filling() fills it
  filling_.background = false;
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    state_->buffers[i] = allocate(count, bytes_each, memory);
    state_->free_list.push_back(count - 1 - i);  // hand out index 0 first
  }
  state_->filling_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

FramePool::~FramePool() {
  cancel();
  if (filler_.joinable()) filler_.join();
}

void FramePool::start_filling() {
  if (filling_.background && !filler_.joinable())
    filler_ = std::thread(fill_in_background, state_, filling_.cuda_device);
}

void FramePool::rethrow_filling_error() const {
  std::lock_guard lock(state_->mutex);
  if (state_->filling_error) throw *state_->filling_error;
}

AVBufferRef* FramePool::acquire(std::chrono::milliseconds timeout) {
  std::size_t index;
  {
    std::unique_lock lock(state_->mutex);
    const auto start = std::chrono::steady_clock::now();
    ++state_->waiters;
    const bool got = state_->freed.wait_for(lock, timeout, [&] {
      return state_->cancelled || !state_->free_list.empty() || state_->filling_error;
    });
    --state_->waiters;
    state_->wait_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!got || state_->cancelled || state_->free_list.empty()) return nullptr;
    index = state_->free_list.back();
    state_->free_list.pop_back();
  }
  auto* lease = new Lease{state_, index};
  AVBufferRef* ref = av_buffer_create(
      state_->buffers[index].data(), state_->bytes_each,
      [](void* opaque, std::uint8_t*) {
        auto* l = static_cast<Lease*>(opaque);
        l->state->release(l->index);
        delete l;
      },
      lease, 0);
  if (!ref) {
    state_->release(index);
    delete lease;
    throw std::bad_alloc();
  }
  return ref;
}

void FramePool::cancel() {
  {
    std::lock_guard lock(state_->mutex);
    state_->cancelled = true;
  }
  state_->freed.notify_all();
  if (filling_.background) FillRounds::shared().wake();
}

bool FramePool::owns(const AVBufferRef* buf) const {
  if (!buf) return false;
  std::lock_guard lock(state_->mutex);  // a background filling writes the slots
  for (const auto& b : state_->buffers)
    if (b.data() == buf->data) return true;
  return false;
}

std::size_t FramePool::capacity() const { return state_->buffers.size(); }

std::size_t FramePool::free_count() const {
  std::lock_guard lock(state_->mutex);
  return state_->free_list.size();
}

std::size_t FramePool::buffer_bytes() const { return state_->bytes_each; }
HostMemory FramePool::memory() const { return state_->memory; }

int FramePool::waiters() const {
  std::lock_guard lock(state_->mutex);
  return state_->waiters;
}

double FramePool::filling_seconds() const {
  std::lock_guard lock(state_->mutex);
  return state_->filling_seconds;
}

double FramePool::wait_seconds() const {
  std::lock_guard lock(state_->mutex);
  return state_->wait_seconds;
}

}  // namespace vidpipe
