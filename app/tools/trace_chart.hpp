// Renders a window of a trace file (trace.cpp's format) as a PNG timeline, one row
// per track, so overlap can be seen without a trace viewer.
#pragma once
#include <string>

namespace vidpipe {

// window_ms long, starting start_s seconds after the trace's first span.
void write_trace_chart(const std::string& trace_json, const std::string& png, double start_s, double window_ms);

}  // namespace vidpipe
