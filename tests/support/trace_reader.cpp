#include "trace_reader.hpp"

#include <algorithm>

#include "cli_runner.hpp"

namespace vidpipe::test {

std::vector<TraceSpan> read_trace(const std::string& path) {
  const nlohmann::json trace = read_json(path);
  std::vector<TraceSpan> spans;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") != "X") continue;
    const double begin = e.at("ts").get<double>() / 1e6;
    spans.push_back({e.at("name"), e.at("tid"), begin, begin + e.at("dur").get<double>() / 1e6,
                     e.value("args", nlohmann::json::object())});
  }
  return spans;
}

std::vector<std::int64_t> sink_frames(const std::vector<TraceSpan>& spans) {
  std::vector<const TraceSpan*> sinks;
  for (const TraceSpan& s : spans)
    if (s.track == 3 && s.name == "sink") sinks.push_back(&s);
  std::sort(sinks.begin(), sinks.end(), [](const TraceSpan* a, const TraceSpan* b) { return a->end_s < b->end_s; });
  std::vector<std::int64_t> frames;
  for (const TraceSpan* s : sinks) frames.push_back(s->args.at("frame"));
  return frames;
}

double union_within(std::vector<TraceSpan> spans, double lo, double hi) {
  std::sort(spans.begin(), spans.end(), [](const TraceSpan& a, const TraceSpan& b) { return a.begin_s < b.begin_s; });
  double total = 0, covered_to = lo;
  for (const TraceSpan& s : spans) {
    const double begin = std::max(s.begin_s, covered_to), end = std::min(s.end_s, hi);
    if (end > begin) total += end - begin;
    covered_to = std::max(covered_to, std::min(s.end_s, hi));
  }
  return total;
}

}  // namespace vidpipe::test
