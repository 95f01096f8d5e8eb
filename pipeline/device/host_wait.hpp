// Host time blocked on the device, as the executors measure it and hand it back: the
// executors record their waits here rather than into the run's metrics, so they can be
// driven and tested on their own.
#pragma once
#include <vector>

#include "base/clock.hpp"

namespace vidpipe {

// What the submitting thread was blocked on.
enum class WaitKind { copy, compute, output_buffer };

struct HostWait {
  WaitKind kind = WaitKind::copy;
  double begin = 0, end = 0;  // pipeline clock seconds
};
using HostWaits = std::vector<HostWait>;

// Records [construction, destruction) as a wait of `kind` into `out`.
class TimedWait {
 public:
  TimedWait(HostWaits& out, WaitKind kind, double clock_origin)
      : out_(out), kind_(kind), origin_(clock_origin), begin_(steady_seconds() - clock_origin) {}
  ~TimedWait() { out_.push_back({kind_, begin_, steady_seconds() - origin_}); }
  TimedWait(const TimedWait&) = delete;
  TimedWait& operator=(const TimedWait&) = delete;

 private:
  HostWaits& out_;
  WaitKind kind_;
  double origin_, begin_;
};

}  // namespace vidpipe
