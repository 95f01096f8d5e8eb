// Charts are drawn by matplotlib (tools/charts.py) from the JSON a command writes: a chart
// library gives axes, ticks, units and legends that hand-drawn OpenCV charts did not. Where
// no Python with matplotlib is found (the GPU machine's bundle has none), the command
// still prints its table and writes its JSON, and says why there is no chart.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace vidpipe {

// Writes `png` from `data` with charts.py's `kind` ("bench", "copybench", "trace") and
// prints "chart: <png>" on `said`, or warns once why it could not ("no chart: ...").
// `json_path` names where the figures are kept for that warning (empty: none kept).
// Returns whether the PNG was written.
// `said`: where "chart: <png>" goes (stderr when stdout carries the command's --json).
bool render_chart(const std::string& kind, const nlohmann::json& data, const std::string& png,
                  const std::string& json_path, std::ostream& said);

}  // namespace vidpipe
