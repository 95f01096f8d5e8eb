#include "tools/bar_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <opencv2/imgproc.hpp>

#include "tools/png_writer.hpp"

namespace vidpipe {

void write_bar_chart(const std::string& path, const std::string& title, const std::vector<std::string>& labels,
                     const std::vector<ChartPanel>& panels) {
  constexpr int panel_h = 420, margin = 50, label_h = 110, min_slot = 84, value_room = 24;
  // Wide enough that each bar's label fits under it, however many bars there are.
  const int bars = static_cast<int>(labels.size());
  const int panel_w = std::max(640, 2 * margin + min_slot * bars);
  const int width = panel_w * static_cast<int>(panels.size());
  const int height = panel_h + 60;
  cv::Mat img(height, width, CV_8UC3, cv::Scalar(255, 255, 255));
  const cv::Scalar ink(40, 40, 40), bar(200, 120, 40), highlight(60, 160, 60);
  cv::putText(img, title, {margin, 35}, cv::FONT_HERSHEY_SIMPLEX, 0.8, ink, 2, cv::LINE_AA);
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const ChartPanel& panel = panels[p];
    const int x0 = static_cast<int>(p) * panel_w + margin, top = 90, bottom = height - label_h;
    cv::putText(img, panel.title, {x0, top - 20}, cv::FONT_HERSHEY_SIMPLEX, 0.6, ink, 1, cv::LINE_AA);
    const double max = std::max(1e-9, *std::max_element(panel.values.begin(), panel.values.end()));
    const double best_value = panel.lower_is_better ? *std::min_element(panel.values.begin(), panel.values.end()) : max;
    const int n = static_cast<int>(panel.values.size());
    const int slot = (panel_w - 2 * margin) / std::max(1, n);
    cv::line(img, {x0, bottom}, {x0 + slot * n, bottom}, ink, 1);
    for (int i = 0; i < n; ++i) {
      // The tallest bar leaves room for its value under the panel's title.
      const int h = static_cast<int>((bottom - top - value_room) * panel.values[i] / max);
      const int bx = x0 + i * slot + slot / 6;
      const bool best = panel.values[i] == best_value;
      cv::rectangle(img, {bx, bottom - h}, {bx + slot * 2 / 3, bottom}, best ? highlight : bar, cv::FILLED);
      cv::putText(img, fmt::format(fmt::runtime(panel.format), panel.values[i]), {bx, bottom - h - 6},
                  cv::FONT_HERSHEY_SIMPLEX, 0.45, ink, 1, cv::LINE_AA);
      // Mode names are split over two lines so neighbouring labels do not collide.
      const std::string& label = labels[i];
      const auto cut = label.size() > 8 ? label.rfind(' ') : std::string::npos;
      const std::string lines[2] = {label.substr(0, cut), cut == std::string::npos ? "" : label.substr(cut + 1)};
      for (int l = 0; l < 2; ++l)
        cv::putText(img, lines[l], {bx, bottom + 20 + 18 * l}, cv::FONT_HERSHEY_SIMPLEX, 0.42, ink, 1, cv::LINE_AA);
    }
  }
  write_png(path, img);
}

}  // namespace vidpipe
