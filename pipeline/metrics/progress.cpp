#include "metrics/progress.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace vidpipe {

std::string progress_bar(std::int64_t done, std::int64_t total, double fps, int width) {
  if (total <= 0) return fmt::format("{} frames", done);
  const double f = std::clamp(double(done) / total, 0.0, 1.0);
  const int filled = static_cast<int>(f * width);
  const std::string eta = fps > 0 ? fmt::format("ETA {:.0f}s", (total - std::min(done, total)) / fps) : "ETA ?";
  return fmt::format("[{}{}] {}/{} {:3.0f}% {}", std::string(filled, '#'), std::string(width - filled, '.'), done,
                     total, 100 * f, eta);
}

}  // namespace vidpipe
