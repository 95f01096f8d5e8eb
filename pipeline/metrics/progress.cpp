#include "metrics/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <vector>

namespace vidpipe {
namespace {

constexpr int widest_bar = 30, narrowest_bar = 8;
std::atomic<bool> progress_row_open{false};

std::vector<std::string> headline_fields(const ProgressState& s) {
  std::vector<std::string> fields;
  if (s.figures) {
    const LiveFigures& f = *s.figures;
    fields.push_back(fmt::format("fps {:.1f}", f.fps));
    fields.push_back(fmt::format("copy-wait {:.1f}%", 100 * f.copy_wait));
    fields.push_back(fmt::format("{} busy {:.1f}%", f.on_gpu ? "gpu" : "cpu", 100 * f.busy));
  }
  if (s.dropped > 0) fields.push_back(fmt::format("dropped {}", s.dropped));
  if (s.total <= 0) {
    fields.push_back(fmt::format("{} frames", s.done));
    if (!s.ending.empty()) fields.push_back(s.ending);
    return fields;
  }
  const double done_share = std::clamp(double(s.done) / double(s.total), 0.0, 1.0);
  fields.push_back(fmt::format("{}/{} {:.0f}%", s.done, s.total, 100 * done_share));
  if (!s.ending.empty())
    fields.push_back(s.ending);
  else if (s.figures && s.figures->fps > 0)
    fields.push_back(fmt::format("ETA {:.0f}s", double(s.total - std::min(s.done, s.total)) / s.figures->fps));
  return fields;
}

std::string bar(double done_share, int width) {
  const int inside = width - 2;
  const int filled = static_cast<int>(done_share * inside);
  return "[" + std::string(filled, '#') + std::string(inside - filled, '.') + "]";
}

}  // namespace

std::string live_log_line(const LiveFigures& f, std::int64_t dropped) {
  std::string line = fmt::format("frames {:>6} | fps {:7.1f} | copy-wait {:5.1f}% | {} busy {:5.1f}%", f.frames, f.fps,
                                 100 * f.copy_wait, f.on_gpu ? "gpu" : "cpu", 100 * f.busy);
  if (dropped > 0) line += fmt::format(" | dropped {}", dropped);
  return line;
}

std::string progress_line(const ProgressState& state, int columns) {
  const int room = columns - 1;  // the last column would wrap
  std::string line;
  for (const std::string& field : headline_fields(state)) {
    const std::string joined = line.empty() ? field : line + " | " + field;
    if (static_cast<int>(joined.size()) > room) return line;
    line = joined;
  }
  if (state.total <= 0) return line;
  const int bar_width = std::min(widest_bar, room - static_cast<int>(line.size()) - 1);
  if (bar_width < narrowest_bar) return line;
  return line + " " + bar(std::clamp(double(state.done) / double(state.total), 0.0, 1.0), bar_width);
}

int terminal_columns() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0) return std::atoi(columns);
  return 80;
}

void set_progress_row_open(bool open) { progress_row_open = open; }
bool take_progress_row() { return progress_row_open.exchange(false); }

}  // namespace vidpipe
