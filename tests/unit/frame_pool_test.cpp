#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include <unistd.h>

#include "common/cuda_check.hpp"
#include "gpu_guard.hpp"
#include "memory/frame_pool.hpp"

namespace vidpipe {
namespace {

using namespace std::chrono_literals;

TEST(FramePool, HandsOutDistinctBuffersUpToCapacity) {
  FramePool pool(3, 1000, HostMemory::pageable);
  std::set<const std::uint8_t*> seen;
  std::vector<AVBufferRef*> held;
  for (int i = 0; i < 3; ++i) {
    AVBufferRef* b = pool.acquire(10ms);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->size, 1000u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b->data) % 64, 0u);
    EXPECT_TRUE(pool.owns(b));
    seen.insert(b->data);
    held.push_back(b);
  }
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(pool.free_count(), 0u);
  EXPECT_EQ(pool.acquire(20ms), nullptr) << "a fourth buffer must not exist";
  for (AVBufferRef*& b : held) av_buffer_unref(&b);
  EXPECT_EQ(pool.free_count(), 3u);
}

TEST(FramePool, ReleasedBufferIsReused) {
  FramePool pool(1, 64, HostMemory::pageable);
  AVBufferRef* a = pool.acquire(10ms);
  const std::uint8_t* first = a->data;
  AVBufferRef* extra_ref = av_buffer_ref(a);
  av_buffer_unref(&a);
  EXPECT_EQ(pool.free_count(), 0u) << "still referenced: must not return yet";
  av_buffer_unref(&extra_ref);
  AVBufferRef* b = pool.acquire(10ms);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->data, first);
  av_buffer_unref(&b);
}

TEST(FramePool, AcquireBlocksUntilAnotherThreadReleases) {
  FramePool pool(1, 64, HostMemory::pageable);
  AVBufferRef* held = pool.acquire(10ms);
  std::atomic<bool> released{false};
  // Releases only once the main thread is seen waiting in acquire(): no timing involved.
  std::thread releaser([&] {
    while (pool.waiters() == 0) std::this_thread::yield();
    released = true;
    av_buffer_unref(&held);
  });
  AVBufferRef* b = pool.acquire(60s);
  EXPECT_TRUE(released.load()) << "acquire returned before the buffer was released";
  ASSERT_NE(b, nullptr);
  av_buffer_unref(&b);
  releaser.join();
  EXPECT_GT(pool.wait_seconds(), 0.0) << "the time blocked was not counted";
  EXPECT_EQ(pool.waiters(), 0);
}

TEST(FramePool, CancelWakesWaiters) {
  FramePool pool(1, 64, HostMemory::pageable);
  AVBufferRef* held = pool.acquire(10ms);
  std::thread canceller([&] {
    while (pool.waiters() == 0) std::this_thread::yield();
    pool.cancel();
  });
  EXPECT_EQ(pool.acquire(10s), nullptr);
  canceller.join();
  av_buffer_unref(&held);
}

TEST(FramePool, BuffersOutliveThePool) {
  AVBufferRef* b = nullptr;
  {
    FramePool pool(2, 128, HostMemory::pageable);
    b = pool.acquire(10ms);
  }
  b->data[127] = 42;  // memory still valid (ASan would flag it otherwise)
  EXPECT_EQ(b->data[127], 42);
  av_buffer_unref(&b);
}

TEST(FramePool, OwnsOnlyItsBuffers) {
  FramePool a(1, 64, HostMemory::pageable), b(1, 64, HostMemory::pageable);
  AVBufferRef* x = a.acquire(10ms);
  EXPECT_TRUE(a.owns(x));
  EXPECT_FALSE(b.owns(x));
  EXPECT_FALSE(a.owns(nullptr));
  av_buffer_unref(&x);
}

// Asking to pin more than half of RAM is refused before anything is allocated, with
// the keys to change; pageable memory of the same size is not checked (it can swap).
TEST(FramePool, PinningMostOfTheMachineIsOneClearError) {
  const auto phys = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t frame = 12'441'600;  // one 4K 4:2:0 frame
  const std::size_t count = phys / 2 / frame + 1;
  try {
    FramePool pool(count, frame, HostMemory::pinned);
    ADD_FAILURE() << "pinning " << count << " 4K frames was accepted";
  } catch (const CudaError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
    EXPECT_NE(what.find("not enough host memory to pin " + std::to_string(count) + " frame buffers of 12.4 MB"),
              std::string::npos) << what;
    EXPECT_NE(what.find("lower copy.streams or copy.batch_size, or use copy.memory: pageable"), std::string::npos);
  }
}

// A filling that cannot pin (here: no such device) must wake a waiting decoder at once,
// not after its timeout, and its error is the one the run ends with.
TEST(FramePool, FailedBackgroundFillingEndsTheWaitWithItsError) {
  FramePool pool(4, 1000, HostMemory::pinned, PoolFilling{true, 99});
  pool.start_filling();
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(pool.acquire(60s), nullptr);
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 30s) << "the waiter slept through the filling's failure";
  EXPECT_THROW(pool.rethrow_filling_error(), CudaError);
}

TEST(FramePoolGpu, BackgroundFillingHandsOutEveryBufferPinned) {
  REQUIRE_GPU();
  FramePool pool(8, 1 << 20, HostMemory::pinned, PoolFilling{true, 0});
  EXPECT_EQ(pool.acquire(50ms), nullptr) << "filled before it was told to start";
  pool.start_filling();
  std::set<const std::uint8_t*> seen;
  std::vector<AVBufferRef*> held;
  for (int i = 0; i < 8; ++i) {
    AVBufferRef* b = pool.acquire(10s);
    ASSERT_NE(b, nullptr) << "buffer " << i;
    cudaPointerAttributes attributes{};
    ASSERT_EQ(cudaPointerGetAttributes(&attributes, b->data), cudaSuccess);
    EXPECT_EQ(attributes.type, cudaMemoryTypeHost) << "buffer " << i << " is not pinned";
    EXPECT_TRUE(pool.owns(b));
    seen.insert(b->data);
    held.push_back(b);
  }
  EXPECT_EQ(seen.size(), 8u);
  EXPECT_EQ(pool.acquire(50ms), nullptr);  // all eight held: the ninth waits
  EXPECT_NO_THROW(pool.rethrow_filling_error());
  for (AVBufferRef* b : held) av_buffer_unref(&b);
  EXPECT_EQ(pool.free_count(), 8u);
}

// The run can end while the pool is still pinning: the filling stops, and a buffer still
// held stays valid until it is let go.
TEST(FramePoolGpu, PoolGoneWhileFillingKeepsHeldBuffersValid) {
  REQUIRE_GPU();
  AVBufferRef* held = nullptr;
  {
    FramePool pool(64, 12'441'600, HostMemory::pinned, PoolFilling{true, 0});
    pool.start_filling();
    held = pool.acquire(10s);
    ASSERT_NE(held, nullptr);
  }
  std::fill(held->data, held->data + held->size, std::uint8_t{7});
  EXPECT_EQ(held->data[held->size - 1], 7);
  av_buffer_unref(&held);
}

}  // namespace
}  // namespace vidpipe
