// The command line: every command's options, and which command was asked for.
#pragma once
#include <CLI/CLI.hpp>

#include <atomic>
#include <string>

#include "commands.hpp"

namespace vidpipe {

struct TraceChartArgs {
  std::string trace, png;
  double start_s = 0, window_ms = 50;
  bool json = false;
};

struct CommandLine {
  CLI::App app{"vidpipe: what synchronous host-to-device copies cost a video pipeline, and how "
               "pinned buffers plus CUDA streams win it back"};
  bool verbose = false, quiet = false;
  RunArgs run_args, bench_args, serve_args;
  int bench_preload = 0;
  bool bench_brief = false, bench_density = false;
  CopyBenchArgs copybench_args;
  TraceChartArgs trace_chart_args;
  ProbeArgs probe_args;
  bool config_yaml = false;
  CLI::App *run = nullptr, *bench = nullptr, *copybench = nullptr, *trace_chart = nullptr, *probe = nullptr, *serve = nullptr,
           *config_doc = nullptr;
};

// Declares every command and option on `cli.app`.
void define_commands(CommandLine& cli);
// Runs the command that was parsed; its exit code.
int dispatch(CommandLine& cli, const std::atomic<bool>* stop);

}  // namespace vidpipe
