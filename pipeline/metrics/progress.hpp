// The progress line shown on a terminal: bar, frames done of total, ETA.
#pragma once
#include <cstdint>
#include <string>

namespace vidpipe {

// total 0 (live input, looping without a limit): just the count.
std::string progress_bar(std::int64_t done, std::int64_t total, double fps, int width = 30);

}  // namespace vidpipe
