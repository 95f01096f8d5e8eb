#include "base/clock.hpp"

#include <chrono>

namespace vidpipe {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace vidpipe
