// How frames of many inputs meet in batches, in the manner of DeepStream's nvstreammux:
// each input has a bounded queue of its own; a batch goes when it is full or when its
// oldest frame has waited `timeout` (batched-push-timeout), so a batch adds at most that
// to any frame's latency; frames are taken one input at a time in turn, so an input that
// floods holds no other back and one that stalls only misses its turns.
//
// Written here rather than taken from a library: it is the policy alone (no locks, no
// clock), a few lines over std::deque. FrameSources puts the locks and the waiting around
// it; its tests pass the times in, so they need no sleeps.
#pragma once
#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace vidpipe {

template <class T>
class FairBatcher {
 public:
  FairBatcher(int inputs, std::size_t per_input) : queues_(static_cast<std::size_t>(inputs)),
                                                   per_input_(std::max<std::size_t>(1, per_input)) {}

  int inputs() const { return static_cast<int>(queues_.size()); }
  std::size_t per_input() const { return per_input_; }
  bool full(int input) const { return queues_[input].size() >= per_input_; }
  std::size_t waiting(int input) const { return queues_[input].size(); }
  std::size_t waiting() const {
    std::size_t n = 0;
    for (const auto& q : queues_) n += q.size();
    return n;
  }

  // The caller checks full() first: a file reader waits for room, a live one drops.
  void push(int input, T item, double arrived_s) { queues_[input].push_back({std::move(item), arrived_s}); }

  // The input's oldest waiting frame, taken out (input.drop: oldest).
  std::optional<T> drop_oldest(int input) {
    auto& q = queues_[input];
    if (q.empty()) return std::nullopt;
    T item = std::move(q.front().item);
    q.pop_front();
    return item;
  }

  // When a batch of up to `batch` frames is due: -inf (now) once `batch` frames wait, else
  // the oldest waiting frame's arrival plus `timeout_s`; +inf while nothing waits.
  double due_s(std::size_t batch, double timeout_s) const {
    if (waiting() >= batch) return -std::numeric_limits<double>::infinity();
    double oldest = std::numeric_limits<double>::infinity();
    for (const auto& q : queues_)
      if (!q.empty()) oldest = std::min(oldest, q.front().arrived_s);
    return oldest + timeout_s;
  }

  // Up to `batch` frames, one from each input in turn, each input's in its own order. The
  // next batch's turn starts after the last input this one took from, so when a batch
  // cannot take a frame from every input, the inputs left out are the first served next
  // time: with 64 inputs and batches of 16, every input once in four batches. (Starting one
  // input later each batch instead served an input in 16 batches running and then left it
  // out for 48: at 30 fps its 2-frame queue overflowed, and half of all frames were dropped.)
  std::vector<T> take(std::size_t batch) {
    std::vector<T> out;
    const int n = inputs();
    if (n == 0) return out;
    int next = first_;
    for (bool took = true; out.size() < batch && took;) {
      took = false;
      for (int k = 0; k < n && out.size() < batch; ++k) {
        const int input = (first_ + k) % n;
        auto& q = queues_[input];
        if (q.empty()) continue;
        out.push_back(std::move(q.front().item));
        q.pop_front();
        took = true;
        next = (input + 1) % n;
      }
    }
    first_ = next;
    return out;
  }

 private:
  struct Waiting {
    T item;
    double arrived_s;
  };
  std::vector<std::deque<Waiting>> queues_;
  std::size_t per_input_;
  int first_ = 0;  // the input the next batch starts with
};

}  // namespace vidpipe
