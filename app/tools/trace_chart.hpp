// trace-png: cuts a window out of a trace file (trace.cpp's format), prints each track's
// busy time in it and draws it as a timeline (charts.py), one row per track, so overlap
// can be seen without a trace viewer.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace vidpipe {

// The spans of `trace_json` that fall in [start_s, start_s + window_ms) after the trace's
// first span, clipped to it, as charts.py's "trace" input: {title, start_s, window_ms,
// tracks: [{name, busy_ms, spans: [[start_ms, duration_ms, name], ...]}]}, times relative
// to the window's start. A bad window or a file that is not a trace is a ConfigError
// naming the option or the file.
nlohmann::json trace_window(const std::string& trace_json, double start_s, double window_ms);

// Prints the window's table and draws its chart; returns the exit code.
// `json`: the window (tracks, busy ms, spans) as JSON on stdout, the table on stderr.
int trace_png_command(const std::string& trace_json, const std::string& png, double start_s, double window_ms,
                      bool json = false);

}  // namespace vidpipe
