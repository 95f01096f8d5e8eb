// Bounded multi-producer/multi-consumer queue between pipeline threads. close()
// ends it: producers get false, consumers drain what is left and then nullopt.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace vidpipe {

template <class T>
class BlockingQueue {
 public:
  explicit BlockingQueue(std::size_t capacity) : capacity_(capacity) {}

  bool push(T item) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return closed_ || items_.size() < capacity_; });
    if (closed_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }

  // For producers that must not wait (live sources): when full, either the oldest
  // queued item (`drop_oldest`) or `item` itself is discarded. Returns the number
  // discarded (0 or 1), or -1 once closed.
  int push_or_drop(T item, bool drop_oldest) {
    std::optional<T> discarded;  // destroyed after the lock is released
    std::unique_lock lock(mutex_);
    if (closed_) return -1;
    if (items_.size() >= capacity_) {
      if (!drop_oldest) return 1;
      discarded = std::move(items_.front());
      items_.pop_front();
    }
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return discarded ? 1 : 0;
  }

  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_full_.notify_all();
    not_empty_.notify_all();
  }

 private:
  std::size_t capacity_;
  std::deque<T> items_;
  bool closed_ = false;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
};

}  // namespace vidpipe
