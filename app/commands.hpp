// The CLI's subcommands, each in its own file.
#pragma once
#include <CLI/CLI.hpp>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace vidpipe {

struct RunArgs {
  std::string config_path = "config/default.yaml";
  std::vector<std::string> overrides;
  std::string input;
  std::optional<std::string> report;  // given, even as '' (which turns the report off)
  std::optional<std::string> trace;
  std::optional<std::string> detections;
  bool json = false;  // the command's result on stdout (run: the report; bench: bench.json's object)
};

// `report`: whether the command takes --report and --detections (bench writes bench.json,
// not a report, and every rung would find the same faces).
void add_run_options(CLI::App& cmd, RunArgs& args, bool report = true);
struct Config;
Config load_run_config(const RunArgs& args);
// The same, refused (ConfigError) when an output of the run or bench would land on an input.
Config load_checked_config(const RunArgs& args, bool bench);
int run_command(const RunArgs& args, const std::atomic<bool>* stop);
// `vidpipe serve`, and `run` with input.keep_running: `config` is loaded and checked.
int serve(Config config, const RunArgs& args, const std::atomic<bool>* stop);
int serve_command(const RunArgs& args, const std::atomic<bool>* stop);

// bench takes the run options (config, --set, --input, --trace) and runs every mode.
// `brief`: only the naive and best rung of each ladder, with their ratio and verdicts.
int bench_command(const RunArgs& args, bool brief, const std::atomic<bool>* stop);
// `vidpipe bench --density`: live inputs 1, 2, 4, ... until one is not held (tools/density.hpp).
int density_command(const RunArgs& args, const std::atomic<bool>* stop);

struct CopyBenchArgs {
  std::vector<std::string> sizes;  // e.g. 64K, 1M, 512M
  std::vector<int> streams{1, 2, 3, 4, 5, 6, 7, 8};
  int repeats = 5;
  bool cpu = false;
  bool json = false;  // the result on stdout instead of the table (which goes to stderr)
  std::string out = "copybench.json";
  std::string chart = "copybench.png";
};

void add_copybench_options(CLI::App& cmd, CopyBenchArgs& args);
int copybench_command(const CopyBenchArgs& args);

struct ProbeArgs {
  std::string input;
  bool json = false;  // what probe found as JSON on stdout
};

int probe_command(const ProbeArgs& args, const std::atomic<bool>* stop);

}  // namespace vidpipe
