#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "base/errors.hpp"
#include "config/config.hpp"
#include "config/output_guard.hpp"
#include "run/pipeline.hpp"
#include "metrics/report.hpp"
#include "version.hpp"

namespace vidpipe {

void add_run_options(CLI::App& cmd, RunArgs& args, bool report) {
  cmd.add_option("-c,--config", args.config_path, "YAML config file")->capture_default_str();
  cmd.add_option("--set", args.overrides, "Override a config key, e.g. --set copy.streams=4 (repeatable)");
  // Positional as well, as ffmpeg's users type it: `vidpipe run clip.mp4`.
  cmd.add_option("input,-i,--input", args.input, "The input (shorthand for --set input.uri=...)");
  // Callbacks rather than plain strings: `--report ''` must turn the report off, which an
  // empty string could not tell apart from the option not being given.
  if (report)
    cmd.add_option_function<std::string>("--report", [&args](const std::string& v) { args.report = v; },
                                         "Shorthand for --set metrics.report=... ('' writes no report)");
  if (report)
    cmd.add_option_function<std::string>(
        "--detections", [&args](const std::string& v) { args.detections = v; },
        "Write every frame's faces as JSON Lines (shorthand for --set metrics.detections=...)");
  cmd.add_option_function<std::string>("--trace", [&args](const std::string& v) { args.trace = v; },
                                       "Write a Chrome/Perfetto trace (shorthand for --set metrics.trace=...)");
}

Config load_run_config(const RunArgs& args) {
  // Taken literally: through YAML, 'run #1.json' was "run" and '[1080p] movie.mp4' a list.
  std::vector<LiteralSetting> paths;
  if (!args.input.empty()) paths.push_back({"input.uri", args.input, "--input"});
  if (args.report) paths.push_back({"metrics.report", *args.report, "--report"});
  if (args.trace) paths.push_back({"metrics.trace", *args.trace, "--trace"});
  if (args.detections) paths.push_back({"metrics.detections", *args.detections, "--detections"});
  return load_config(args.config_path, args.overrides, paths);
}

Config load_checked_config(const RunArgs& args, bool bench) {
  Config config = load_run_config(args);
  refuse_outputs_onto_inputs(config, bench);
  check_output_places(config, bench);
  return config;
}

namespace {

// A run that ended before its first frame still leaves its report (and --json's), saying so.
[[noreturn]] void report_unstarted(const Config& config, const RunArgs& args,
                                   std::chrono::system_clock::time_point started) {
  try {
    throw;
  } catch (const ConfigError&) {
    throw;  // a config the run refuses writes nothing (docs/REPORT.md), even one found late
  } catch (const std::exception& e) {
    const bool stopped = dynamic_cast<const StoppedBeforeStart*>(&e) != nullptr;
    nlohmann::json report = unstarted_report(e.what(), stopped, version_number());
    report["environment"] = run_environment(started);
    try {  // the run's own error is the one to tell, not the report's
      if (!config.metrics.report.empty()) write_report(report, config.metrics.report);
    } catch (const OutputError& report_error) {
      spdlog::warn("{}", report_error.what());
    }
    if (args.json) std::cout << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    throw;
  }
}

}  // namespace

int run_command(const RunArgs& args, const std::atomic<bool>* stop) {
  const auto started = std::chrono::system_clock::now();
  const Config config = load_checked_config(args, false);
  if (config.input.keep_running) {
    check_inputs_exist(config);
    return serve(config, args, stop);
  }
  const RunResult result = [&] {
    try {
      check_inputs_exist(config);
      return run_pipeline(config, stop, version_number());
    } catch (...) {
      report_unstarted(config, args, started);
    }
  }();
  // stdout holds the summary, or with --json the report alone (for scripts); logs are on stderr.
  std::ostream& summary = args.json ? std::cerr : std::cout;
  SummaryNotes notes{config.gpu.inference};
  for (const auto& input : result.report.value("inputs", nlohmann::json::array()))
    notes.reconnects += input.value("reconnects", 0);
  summary << summary_text(result.mode, result.device, result.summary, notes);
  summary << startup_line(result.startup, result.summary.first, result.shutdown);
  if (result.prediction.fps > 0)
    summary << fmt::format("  async x{} should reach ~{:.0f} fps, bound by {} (from this run's stage times)\n",
                           result.prediction.streams, result.prediction.fps, result.prediction.bound);
  nlohmann::json report = result.report;
  report["environment"] = run_environment(started);
  if (!config.metrics.report.empty()) {
    write_report(report, config.metrics.report);
    summary << "  report: " << config.metrics.report << "\n";
  }
  if (args.json) std::cout << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (result.error) std::rethrow_exception(result.error);
  return stop && stop->load() ? 130 : 0;
}

}  // namespace vidpipe
