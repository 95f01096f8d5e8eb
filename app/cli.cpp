#include "cli.hpp"

#include <iostream>

#include "config/config.hpp"
#include "tools/trace_chart.hpp"
#include "version.hpp"

namespace vidpipe {
namespace {

void define_run(CommandLine& cli) {
  cli.run = cli.app.add_subcommand("run", "Run the pipeline on one input (or several: inputs)");
  add_run_options(*cli.run, cli.run_args);
  cli.run->add_flag("--json", cli.run_args.json, "Print the report on stdout instead of the summary (for scripts)");
}

void define_serve(CommandLine& cli) {
  cli.serve_args.config_path = "config/serve.yaml";
  cli.serve = cli.app.add_subcommand(
      "serve", "Run as a service: inputs added and removed over HTTP (POST/DELETE /inputs), /healthz, /readyz, /metrics");
  add_run_options(*cli.serve, cli.serve_args);
  cli.serve->add_flag("--json", cli.serve_args.json, "At the end, print the service's report on stdout");
}

void define_bench(CommandLine& cli) {
  cli.bench_args.config_path = "config/bench.yaml";
  cli.bench = cli.app.add_subcommand("bench", "Run one input through every copy mode and compare them");
  add_run_options(*cli.bench, cli.bench_args, false);
  cli.bench->add_flag("--json", cli.bench_args.json,
                      "Print bench.json's object on stdout instead of the table (the table goes to stderr)");
  cli.bench->add_option("--preload", cli.bench_preload, "Also run the ladder on N frames preloaded into memory (bench.preload)")
      ->check(CLI::Range(0, 100000));
  cli.bench->add_flag("--brief", cli.bench_brief,
                      "Print only the comparison: each ladder's naive and best rung, their ratio and verdicts");
  cli.bench->add_flag("--density", cli.bench_density,
                      "Instead of the ladder: how many live copies of the input are held in real time "
                      "(1, 2, 4, ... inputs; bench.latency_ms, bench.density_seconds, bench.density_max)");
}

void define_tools(CommandLine& cli) {
  cli.copybench = cli.app.add_subcommand("copybench", "Host<->device copy bandwidth and the rules of thumb");
  add_copybench_options(*cli.copybench, cli.copybench_args);
  TraceChartArgs& t = cli.trace_chart_args;
  cli.trace_chart = cli.app.add_subcommand(
      "trace-png", "Print each track's busy time in a window of a --trace file and draw it as a PNG timeline");
  cli.trace_chart->add_option("--trace", t.trace, "Trace written by --trace")->required();
  cli.trace_chart->add_option("--png", t.png, "PNG to write")->required();
  cli.trace_chart->add_option("--start", t.start_s, "Window start, seconds after the first span")->capture_default_str();
  cli.trace_chart->add_option("--window", t.window_ms, "Window length in ms")->capture_default_str();
  cli.trace_chart->add_flag("--json", t.json, "Print the window's tracks and spans as JSON on stdout (the table on stderr)");
  cli.probe = cli.app.add_subcommand("probe", "Show an input's streams and this machine's CUDA devices");
  cli.probe->add_option("input,-i,--input", cli.probe_args.input, "Video file, image, /dev/videoN or stream URL")
      ->required();
  cli.probe->add_flag("--json", cli.probe_args.json, "Print what probe found as JSON on stdout");
  cli.config_doc = cli.app.add_subcommand(
      "config-doc", "Print config/README.md, generated from the key declarations (--yaml: a config of every default)");
  cli.config_doc->add_flag("--yaml", cli.config_yaml,
                           "Print a complete YAML config, every key at its default with its meaning, that run -c loads");
}

}  // namespace

void define_commands(CommandLine& cli) {
  cli.app.require_subcommand(1);
  cli.app.set_version_flag("-V,--version", [] { return version_text(); });
  cli.app.add_flag("-v,--verbose", cli.verbose, "Also show FFmpeg's log messages");
  cli.app.add_flag("-q,--quiet", cli.quiet, "Only warnings and errors on stderr (the summary still goes to stdout)");
  define_run(cli);
  define_serve(cli);
  define_bench(cli);
  define_tools(cli);
  // -v and -q also after the command, as `vidpipe run -v ...`.
  for (CLI::App* sub : cli.app.get_subcommands([](const CLI::App*) { return true; })) sub->fallthrough();
}

int dispatch(CommandLine& cli, const std::atomic<bool>* stop) {
  if (*cli.run) return run_command(cli.run_args, stop);
  if (*cli.serve) return serve_command(cli.serve_args, stop);
  if (*cli.config_doc) {
    std::cout << (cli.config_yaml ? config_template_yaml() : config_reference_markdown());
    return 0;
  }
  if (*cli.probe) return probe_command(cli.probe_args, stop);
  if (*cli.bench) {
    if (cli.bench_preload > 0) cli.bench_args.overrides.push_back("bench.preload=" + std::to_string(cli.bench_preload));
    if (cli.bench_density) return density_command(cli.bench_args, stop);
    return bench_command(cli.bench_args, cli.bench_brief, stop);
  }
  if (*cli.copybench) return copybench_command(cli.copybench_args);
  if (*cli.trace_chart) {
    const TraceChartArgs& t = cli.trace_chart_args;
    return trace_png_command(t.trace, t.png, t.start_s, t.window_ms, t.json);
  }
  return 0;
}

}  // namespace vidpipe
