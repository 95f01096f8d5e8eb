#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "memory/fill_rounds.hpp"

namespace vidpipe {
namespace {

// Members that fill 4, 6 and 2 buffers from their own threads: every buffer k of any member
// comes after every other member still filling has made k, whatever order the threads run in.
TEST(FillRounds, NoMemberRunsARoundAheadOfAnother) {
  FillRounds rounds;
  const std::vector<int> counts = {4, 6, 2};
  std::mutex order_mutex;
  std::vector<std::pair<int, int>> order;  // (member, its buffer number)
  std::vector<std::unique_ptr<FillRounds::Member>> members;
  for (std::size_t m = 0; m < counts.size(); ++m) members.push_back(std::make_unique<FillRounds::Member>(rounds));
  std::vector<std::thread> fillers;
  for (int m = 0; m < static_cast<int>(counts.size()); ++m)
    fillers.emplace_back([&, m] {
      for (int k = 0; k < counts[m]; ++k) {
        ASSERT_TRUE(members[m]->wait_turn([] { return false; }));
        {
          std::lock_guard lock(order_mutex);
          order.emplace_back(m, k);
        }
        members[m]->made_one();
      }
      members[m].reset();  // done: it leaves the rounds
    });
  for (std::thread& t : fillers) t.join();
  ASSERT_EQ(order.size(), 12u);
  std::vector<int> made(counts.size(), 0);
  for (const auto& [m, k] : order) {
    for (std::size_t other = 0; other < counts.size(); ++other)
      if (made[other] < counts[other])  // still filling
        EXPECT_GE(made[other], k) << "member " << m << " made buffer " << k << " before member " << other
                                  << " had " << k;
    ++made[m];
  }
}

// A member waiting its turn behind one that makes nothing ends when cancelled and woken.
TEST(FillRounds, ACancelledWaitEndsOnWake) {
  FillRounds rounds;
  FillRounds::Member stuck(rounds), waiting(rounds);
  waiting.made_one();  // one ahead of `stuck`: its next turn waits for `stuck`
  std::atomic<bool> cancelled{false};
  std::atomic<int> result{-1};
  std::thread waiter([&] { result = waiting.wait_turn([&] { return cancelled.load(); }) ? 1 : 0; });
  cancelled = true;
  rounds.wake();
  waiter.join();
  EXPECT_EQ(result, 0);
}

}  // namespace
}  // namespace vidpipe
