// The progress line shown on a terminal: bar, frames done of total, ETA.
#pragma once
#include <cstdint>
#include <string>

namespace vidpipe {

// total 0 (live input, looping without a limit): just the count.
std::string progress_bar(std::int64_t done, std::int64_t total, double fps, int width = 30);

// The terminal's width in columns (stderr's; else $COLUMNS; else 80).
int terminal_columns();
// The progress line as shown: the bar sized to the terminal, the rest cut so that the line
// never reaches the last column (a terminal would wrap it, and \r would then redraw only
// the second half).
std::string progress_line(std::int64_t done, std::int64_t total, double fps, const std::string& rest, int columns);

}  // namespace vidpipe
