// A readable-at-a-glance PNG: one panel per measure, one labelled bar per mode.
#pragma once
#include <string>
#include <vector>

namespace vidpipe {

struct ChartPanel {
  std::string title;            // e.g. "frames per second"
  std::vector<double> values;   // one per label
  std::string format = "{:.1f}";
  bool lower_is_better = false;  // which bar is highlighted as the best
};

void write_bar_chart(const std::string& path, const std::string& title, const std::vector<std::string>& labels,
                     const std::vector<ChartPanel>& panels);

}  // namespace vidpipe
