// The CLI's subcommands, each in its own file.
#pragma once
#include <CLI/CLI.hpp>
#include <atomic>
#include <string>
#include <vector>

namespace vidpipe {

struct RunArgs {
  std::string config_path = "config/default.yaml";
  std::vector<std::string> overrides;
  std::string input;
  std::string report;
};

void add_run_options(CLI::App& cmd, RunArgs& args);
int run_command(const RunArgs& args, const std::atomic<bool>* stop);

struct ProbeArgs {
  std::string input;
};

int probe_command(const ProbeArgs& args);

}  // namespace vidpipe
