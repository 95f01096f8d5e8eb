#include "tools/trace_chart.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include "base/errors.hpp"
#include "tools/png_writer.hpp"

namespace vidpipe {

void write_trace_chart(const std::string& trace_json, const std::string& png, double start_s, double window_ms) {
  std::ifstream in(trace_json);
  if (!in) throw InputError("cannot read trace '" + trace_json + "'");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("'{}' is not a trace written by vidpipe --trace (byte {}: not JSON)", trace_json,
                                 e.byte));
  }
  std::map<int, std::string> names;
  std::string title;
  double first = 1e300;
  for (const auto& e : j.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") names[e.at("tid")] = e.at("args").at("name");
    if (e.at("ph") == "M" && e.at("name") == "process_name") title = e.at("args").at("name");
    if (e.at("ph") == "X") first = std::min(first, e.at("ts").get<double>());
  }
  const double t0 = first + start_s * 1e6;
  constexpr int W = 1400, row_h = 34, left = 170, top = 60;
  const int H = top + row_h * static_cast<int>(names.size()) + 50;
  cv::Mat img(H, W, CV_8UC3, cv::Scalar(255, 255, 255));
  const cv::Scalar ink(40, 40, 40);
  cv::putText(img, fmt::format("{}: {:.0f} ms from t = {:.3f} s", title, window_ms, t0 / 1e6), {10, 30},
              cv::FONT_HERSHEY_SIMPLEX, 0.65, ink, 2, cv::LINE_AA);
  std::map<int, int> row;
  for (const auto& [tid, name] : names) {
    const int r = static_cast<int>(row.size());
    row[tid] = r;
    cv::putText(img, name, {10, top + r * row_h + 22}, cv::FONT_HERSHEY_SIMPLEX, 0.5, ink, 1, cv::LINE_AA);
    cv::line(img, {left, top + (r + 1) * row_h}, {W - 10, top + (r + 1) * row_h}, cv::Scalar(220, 220, 220));
  }
  const std::map<std::string, cv::Scalar> colour = {
      {"H2D", {200, 110, 30}},   {"D2H", {40, 90, 210}},      {"preprocess", {60, 170, 60}},
      {"inference", {150, 60, 150}}, {"overlay", {0, 170, 200}}, {"decode", {120, 120, 120}},
      {"sink", {90, 150, 90}},   {"copy wait", {30, 30, 220}}, {"compute wait", {0, 140, 255}}};
  const double us_per_px = window_ms * 1e3 / (W - left - 10);
  for (const auto& e : j.at("traceEvents")) {
    if (e.at("ph") != "X" || !row.count(e.at("tid"))) continue;
    const double a = (e.at("ts").get<double>() - t0) / us_per_px;
    const double b = a + e.at("dur").get<double>() / us_per_px;
    if (b < 0 || a > W - left - 10) continue;
    const int y = top + row[e.at("tid")] * row_h + 5;
    const auto it = colour.find(e.at("name").get<std::string>());
    cv::rectangle(img, {left + std::max(0, static_cast<int>(a)), y},
                  {left + std::min(W - left - 10, std::max(static_cast<int>(a) + 1, static_cast<int>(b))), y + row_h - 10},
                  it == colour.end() ? ink : it->second, cv::FILLED);
  }
  int x = left;
  for (const auto& [name, c] : colour) {
    cv::rectangle(img, {x, H - 30}, {x + 14, H - 16}, c, cv::FILLED);
    cv::putText(img, name, {x + 18, H - 17}, cv::FONT_HERSHEY_SIMPLEX, 0.45, ink, 1, cv::LINE_AA);
    x += 30 + static_cast<int>(name.size()) * 9;
  }
  write_png(png, img);
}

}  // namespace vidpipe
