// The order of a density climb's steps: 1, 2, 4, ... inputs until a step is not held (or the
// most allowed), then `refine` halvings of the gap between the most inputs held and the fewest
// not held. Doubling alone can only say "16 held, 32 not" while the decoders alone carry 51
// inputs' worth; two halvings put the answer within an eighth of it (16 held, 32 not: 24,
// then 20 or 28).
//
// Written here rather than taken from a library: it is a bisection over a few integers, and
// the tests pin its order down without running a pipeline.
#pragma once
#include <algorithm>

namespace vidpipe {

class DensityClimb {
 public:
  DensityClimb(int max_inputs, int refine) : max_(std::max(1, max_inputs)), refine_left_(std::max(0, refine)) {}

  // The next step's inputs; 0 once the climb is over.
  int next() const {
    if (failed_ == 0) {  // every step so far held, the last being held_
      const int doubled = held_ == 0 ? 1 : 2 * held_;
      return doubled <= max_ ? doubled : 0;
    }
    const int middle = held_ + (failed_ - held_) / 2;
    return refine_left_ > 0 && held_ > 0 && middle > held_ ? middle : 0;
  }

  void record(int inputs, bool held) {
    if (failed_ != 0) --refine_left_;
    if (held) {
      held_ = std::max(held_, inputs);
    } else {
      failed_ = failed_ == 0 ? inputs : std::min(failed_, inputs);
    }
  }

  int held() const { return held_; }      // the most inputs held (0: not one)
  int failed() const { return failed_; }  // the fewest not held (0: none failed)

 private:
  int max_;
  int refine_left_;
  int held_ = 0, failed_ = 0;
};

}  // namespace vidpipe
