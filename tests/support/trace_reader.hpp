// Reads a vidpipe --trace file back (Trace Event Format), so tests can measure a run
// themselves: which frames reached the sink, how long the copies took, when the device
// was busy.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vidpipe::test {

struct TraceSpan {
  std::string name;
  int track = 0;  // 1 reader, 2 submit, 3 sink, 10 + k CUDA stream k
  double begin_s = 0, end_s = 0;
  nlohmann::json args;
};

std::vector<TraceSpan> read_trace(const std::string& path);

// The frame indices in the order their sink spans ended.
std::vector<std::int64_t> sink_frames(const std::vector<TraceSpan>& spans);

// Total length of the spans' union inside [lo, hi].
double union_within(std::vector<TraceSpan> spans, double lo, double hi);

}  // namespace vidpipe::test
