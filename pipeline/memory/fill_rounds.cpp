#include "memory/fill_rounds.hpp"

#include <algorithm>

namespace vidpipe {

FillRounds& FillRounds::shared() {
  static FillRounds rounds;
  return rounds;
}

FillRounds::Member::Member(FillRounds& rounds) : rounds_(rounds) {
  std::lock_guard lock(rounds_.mutex_);
  id_ = rounds_.next_id_++;
  rounds_.made_[id_] = 0;
}

FillRounds::Member::~Member() {
  {
    std::lock_guard lock(rounds_.mutex_);
    rounds_.made_.erase(id_);
  }
  rounds_.moved_.notify_all();
}

bool FillRounds::Member::wait_turn(const std::function<bool()>& cancelled) {
  std::unique_lock lock(rounds_.mutex_);
  const std::size_t mine = rounds_.made_.at(id_);
  rounds_.moved_.wait(lock, [&] { return cancelled() || rounds_.fewest_made() >= mine; });
  return !cancelled();
}

void FillRounds::Member::made_one() {
  {
    std::lock_guard lock(rounds_.mutex_);
    ++rounds_.made_.at(id_);
  }
  rounds_.moved_.notify_all();
}

void FillRounds::wake() {
  { std::lock_guard lock(mutex_); }  // a waiter between its check and its sleep hears this
  moved_.notify_all();
}

std::size_t FillRounds::fewest_made() const {
  std::size_t fewest = SIZE_MAX;
  for (const auto& [id, made] : made_) fewest = std::min(fewest, made);
  return fewest;
}

}  // namespace vidpipe
