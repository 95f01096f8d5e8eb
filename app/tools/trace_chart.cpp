#include "tools/trace_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "base/errors.hpp"
#include "tools/chart_render.hpp"

namespace vidpipe {
namespace {

nlohmann::json read_trace(const std::string& path) {
  std::ifstream in(path);
  // A file that cannot be read is an input error (exit 3), as in run and probe.
  if (!in) throw InputError("--trace: cannot read '" + path + "'");
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    if (j.is_object() && j.contains("traceEvents") && j.at("traceEvents").is_array()) return j;
  } catch (const nlohmann::json::parse_error&) {
  }
  throw InputError("--trace: '" + path + "' is not a trace written by vidpipe --trace");
}

struct Span {
  int tid;
  double ts_us, dur_us;
  std::string name;
};

// The length of the union of a track's [start_ms, duration_ms, name] spans: they may nest
// (a wait inside a stage), and busy time must not count them twice.
double busy_ms(const nlohmann::json& spans) {
  std::vector<std::pair<double, double>> intervals;
  for (const auto& s : spans) intervals.emplace_back(s[0].get<double>(), s[0].get<double>() + s[1].get<double>());
  std::sort(intervals.begin(), intervals.end());
  double total = 0, end = -1e300;
  for (const auto& [a, b] : intervals) {
    if (b <= end) continue;
    total += b - std::max(a, end);
    end = b;
  }
  return total;
}

}  // namespace

nlohmann::json trace_window(const std::string& trace_json, double start_s, double window_ms) {
  if (!(window_ms > 0)) throw ConfigError(fmt::format("--window: must be more than 0 ms, got {}", window_ms));
  if (!(start_s >= 0)) throw ConfigError(fmt::format("--start: must be 0 s or later, got {}", start_s));
  const nlohmann::json j = read_trace(trace_json);
  std::map<int, std::string> names;
  std::string title = "vidpipe";
  std::vector<Span> spans;
  try {
    for (const auto& e : j.at("traceEvents")) {
      if (e.at("ph") == "M" && e.at("name") == "thread_name") names[e.at("tid")] = e.at("args").at("name");
      if (e.at("ph") == "M" && e.at("name") == "process_name") title = e.at("args").at("name");
      if (e.at("ph") == "X") spans.push_back({e.at("tid"), e.at("ts"), e.at("dur"), e.at("name")});
    }
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError("--trace: '" + trace_json + "' is not a trace written by vidpipe --trace (" + e.what() + ")");
  }
  if (spans.empty()) throw ConfigError("--trace: '" + trace_json + "' holds no spans");
  double first = spans.front().ts_us, last = 0;
  for (const Span& s : spans) {
    first = std::min(first, s.ts_us);
    last = std::max(last, s.ts_us + s.dur_us);
  }
  if (first + start_s * 1e6 >= last)
    throw ConfigError(fmt::format("--start: {} s is past the trace's end (its spans cover {:.3f} s)", start_s,
                                  (last - first) / 1e6));
  const double t0 = first + start_s * 1e6, t1 = t0 + window_ms * 1e3;
  std::map<int, nlohmann::json> track_spans;
  for (const Span& s : spans) {
    const double a = std::max(s.ts_us, t0), b = std::min(s.ts_us + s.dur_us, t1);
    if (b < a || (b == a && s.dur_us > 0)) continue;
    track_spans[s.tid].push_back({(a - t0) / 1e3, (b - a) / 1e3, s.name});
  }
  nlohmann::json tracks = nlohmann::json::array();
  for (const auto& [tid, name] : names) {
    const nlohmann::json mine = track_spans.count(tid) ? track_spans[tid] : nlohmann::json::array();
    tracks.push_back({{"name", name}, {"busy_ms", busy_ms(mine)}, {"spans", mine}});
  }
  // "vidpipe on <GPU>, async x2 pinned": a chart compared with another says what ran.
  const nlohmann::json meta = j.value("metadata", nlohmann::json::object());
  if (meta.contains("mode") && meta["mode"].is_string()) title += ", " + meta["mode"].get<std::string>();
  return {{"title", title}, {"start_s", start_s}, {"window_ms", window_ms}, {"tracks", tracks}};
}

int trace_png_command(const std::string& trace_json, const std::string& png, double start_s, double window_ms,
                      bool json) {
  // The chart over the trace it is drawn from (or any file the command reads) would lose it.
  std::error_code ec;
  if (std::filesystem::equivalent(trace_json, png, ec))
    throw ConfigError("--png: '" + png + "' is the trace '" + trace_json + "'; writing it would destroy what the "
                      "command reads: choose another path");
  const nlohmann::json window = trace_window(trace_json, start_s, window_ms);
  std::ostream& table = json ? std::cerr : std::cout;
  table << fmt::format("{}: {:g} ms from {:.3f} s after the first span\n{:<28} {:>9} {:>7} {:>6}\n", trace_json,
                       window_ms, start_s, "track", "busy ms", "busy", "spans");
  for (const auto& t : window.at("tracks"))
    table << fmt::format("{:<28} {:>9.2f} {:>6.1f}% {:>6}\n", t.at("name").get<std::string>(),
                             t.at("busy_ms").get<double>(), 100 * t.at("busy_ms").get<double>() / window_ms,
                             t.at("spans").size());
  // The chart is this command's output: without it the command failed (exit 3), the
  // table above notwithstanding.
  const bool drawn = render_chart("trace", window, png, "", table);
  if (json) std::cout << window.dump(2) << "\n";
  return drawn ? 0 : 3;
}

}  // namespace vidpipe
