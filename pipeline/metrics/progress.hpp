// The live figures once a second: as a log line, and as the progress line on a terminal.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace vidpipe {

// One second's figures, from RunMetrics::live_figures().
struct LiveFigures {
  std::int64_t frames = 0;  // out of the sink so far
  double fps = 0;
  double copy_wait = 0;  // shares of the second, 0..1
  double busy = 0;
  bool on_gpu = true;  // the compute stage's device, for "gpu busy" / "cpu busy"
};

// "frames 120 | fps 30.0 | copy-wait 1.2% | gpu busy 40.0%" (+ " | dropped N"): for a log.
std::string live_log_line(const LiveFigures& figures, std::int64_t dropped);

struct ProgressState {
  std::int64_t done = 0;
  std::int64_t total = 0;  // 0: not known (a live input, a loop without a limit)
  std::optional<LiveFigures> figures;  // none before the first second
  std::int64_t dropped = 0;
  std::string ending;  // "done" or "interrupted" on the last line; else the ETA is shown
};

// The line a terminal shows, headline figures first: fps, copy-wait, busy, drops, then the
// count, the ETA (or the ending) and a bar. Fields that do not fit before the last column
// are left out from the right, whole: a number is never cut (a line that reached the last
// column would wrap, and \r would redraw only its second half).
std::string progress_line(const ProgressState& state, int columns);

// The terminal's width in columns (stderr's; else $COLUMNS; else 80).
int terminal_columns();

// Whether stderr's current row holds a progress line with no newline after it. A log line
// written then clears the row first (app/logging), so it never lands at the bar's end.
void set_progress_row_open(bool open);
bool take_progress_row();

}  // namespace vidpipe
