// The pools that pin their buffers at the same time do it in rounds: no pool pins its
// (k+1)th buffer before every other has its kth. Each pool's own thread, left to the
// driver's lock, pinned in no order: with 64 inputs some pools were whole before others had
// one buffer, and the first batch, which takes a frame from 16 inputs, reached the GPU
// 1.9 s after the first frame was decoded (docs/BENCHMARKS.md). In rounds, every pool has
// its first buffer after one buffer's pinning per pool.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>

namespace vidpipe {

class FillRounds {
 public:
  // The one every background filling of this process joins.
  static FillRounds& shared();

  // A pool's place in the rounds while it fills; leaves on destruction.
  class Member {
   public:
    explicit Member(FillRounds& rounds);
    ~Member();
    Member(const Member&) = delete;
    Member& operator=(const Member&) = delete;
    // Blocks until every other member has made as many buffers as this one; false if
    // `cancelled` says so first (checked whenever the rounds move, and on wake()).
    bool wait_turn(const std::function<bool()>& cancelled);
    void made_one();

   private:
    FillRounds& rounds_;
    int id_;
  };

  // Makes waiting members look at their `cancelled` again.
  void wake();

 private:
  std::size_t fewest_made() const;  // with mutex_ held

  std::mutex mutex_;
  std::condition_variable moved_;
  std::map<int, std::size_t> made_;  // by member
  int next_id_ = 0;
};

}  // namespace vidpipe
