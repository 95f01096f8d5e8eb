#include "metrics/progress.hpp"

#include <fmt/format.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace vidpipe {

std::string progress_bar(std::int64_t done, std::int64_t total, double fps, int width) {
  if (total <= 0) return fmt::format("{} frames", done);
  const double f = std::clamp(double(done) / total, 0.0, 1.0);
  const int filled = static_cast<int>(f * width);
  const std::string eta = fps > 0 ? fmt::format("ETA {:.0f}s", (total - std::min(done, total)) / fps) : "ETA ?";
  return fmt::format("[{}{}] {}/{} {:3.0f}% {}", std::string(filled, '#'), std::string(width - filled, '.'), done,
                     total, 100 * f, eta);
}

int terminal_columns() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0) return std::atoi(columns);
  return 80;
}

std::string progress_line(std::int64_t done, std::int64_t total, double fps, const std::string& rest, int columns) {
  std::string line = progress_bar(done, total, fps, std::clamp(columns / 8, 8, 30)) + rest;
  if (static_cast<int>(line.size()) >= columns) line.resize(std::max(0, columns - 1));
  return line;
}

}  // namespace vidpipe
