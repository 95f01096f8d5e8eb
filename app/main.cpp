// vidpipe: read the command, run it, map errors to exit codes (README "Exit codes").
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

extern "C" {
#include <libavutil/log.h>
}

#include <csignal>
#include <system_error>
#include <filesystem>
#include <new>
#include <iostream>

#include "commands.hpp"
#include "config/config.hpp"
#include "common/cuda_check.hpp"
#include "base/errors.hpp"
#include "tools/trace_chart.hpp"
#include "cli_errors.hpp"
#include "memory/av_log_capture.hpp"
#include "version.hpp"

namespace {

std::atomic<bool> stop_requested{false};

extern "C" void on_signal(int) {
  // A second Ctrl-C means "now": fall back to the default handler.
  if (stop_requested.exchange(true)) std::_Exit(130);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"vidpipe: what synchronous host-to-device copies cost a video pipeline, and how "
               "pinned buffers plus CUDA streams win it back"};
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", [] { return vidpipe::version_text(); });
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "Also show FFmpeg's log messages");
  app.add_flag("-q,--quiet", quiet, "Only warnings and errors on stderr (the summary still goes to stdout)");
  vidpipe::RunArgs run_args;
  CLI::App* run = app.add_subcommand("run", "Run the pipeline on one input");
  vidpipe::add_run_options(*run, run_args);
  run->add_flag("--json", run_args.json, "Print the report on stdout instead of the summary (for scripts)");
  vidpipe::RunArgs bench_args;
  bench_args.config_path = "config/bench.yaml";
  CLI::App* bench = app.add_subcommand("bench", "Run one input through every copy mode and compare them");
  vidpipe::add_run_options(*bench, bench_args, false);
  int bench_preload = 0;
  bench->add_option("--preload", bench_preload, "Also run the ladder on N frames preloaded into memory (bench.preload)")
      ->check(CLI::Range(0, 100000));
  bool bench_brief = false;
  bench->add_flag("--brief", bench_brief,
                  "Print only the comparison: each ladder's naive and best rung, their ratio and verdicts");
  bool bench_density = false;
  bench->add_flag("--density", bench_density,
                  "Instead of the ladder: how many live copies of the input are held in real time "
                  "(1, 2, 4, ... inputs; bench.latency_ms, bench.density_seconds, bench.density_max)");
  vidpipe::CopyBenchArgs copybench_args;
  CLI::App* copybench = app.add_subcommand("copybench", "Host<->device copy bandwidth and the rules of thumb");
  vidpipe::add_copybench_options(*copybench, copybench_args);
  std::string trace_in, trace_png;
  double trace_start = 0, trace_window_ms = 50;
  CLI::App* trace_chart = app.add_subcommand(
      "trace-png", "Print each track's busy time in a window of a --trace file and draw it as a PNG timeline");
  trace_chart->add_option("--trace", trace_in, "Trace written by --trace")->required();
  trace_chart->add_option("--png", trace_png, "PNG to write")->required();
  trace_chart->add_option("--start", trace_start, "Window start, seconds after the first span")->capture_default_str();
  trace_chart->add_option("--window", trace_window_ms, "Window length in ms")->capture_default_str();
  vidpipe::ProbeArgs probe_args;
  CLI::App* probe = app.add_subcommand("probe", "Show an input's streams and this machine's CUDA devices");
  probe->add_option("--input", probe_args.input, "Video file, image, /dev/videoN or stream URL")->required();
  CLI::App* config_doc =
      app.add_subcommand("config-doc", "Print config/README.md, generated from the key declarations");
  // -v and -q also after the command, as `vidpipe run -v ...`.
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) sub->fallthrough();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // Like every other configuration error: one line, exit 2.
    std::cerr << "vidpipe: " << vidpipe::describe_cli_error(app, e, argc, argv) << "\n";
    return 2;
  }

  // Logs on stderr: stdout is the summary's (or the --json report's), so it can be piped.
  spdlog::set_default_logger(spdlog::stderr_color_mt("vidpipe"));
  if (quiet) spdlog::set_level(spdlog::level::warn);
  spdlog::set_pattern("[%H:%M:%S.%e] %^%l%$ %v");
  // FFmpeg's own chatter (x264 stats, codec banners, "[h264 @ 0x..] no frame!") would bury
  // the pipeline's lines: it goes through vidpipe's log, shown with -v.
  av_log_set_level(verbose ? AV_LOG_INFO : AV_LOG_ERROR);
  vidpipe::route_ffmpeg_log(verbose);
  // Every signal that ends a process finalises as Ctrl-C does: HUP too (the terminal or the
  // ssh session closing), which killed the run with only a .part left.
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGHUP, on_signal);
  // `vidpipe run ... | head` closes the pipe early: the run must still finish its output and
  // report, so a write to a closed stdout/stderr fails quietly instead of killing it.
  std::signal(SIGPIPE, SIG_IGN);
  // A file-size limit (ulimit -f, a quota) must read as a write error the sink reports and
  // cleans up after, not a signal that kills the run with a half-written file.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    if (*run) return vidpipe::run_command(run_args, &stop_requested);
    if (*config_doc) {
      std::cout << vidpipe::config_reference_markdown();
      return 0;
    }
    if (*probe) return vidpipe::probe_command(probe_args, &stop_requested);
    if (*bench) {
      if (bench_preload > 0) bench_args.overrides.push_back("bench.preload=" + std::to_string(bench_preload));
      if (bench_density) return vidpipe::density_command(bench_args, &stop_requested);
      return vidpipe::bench_command(bench_args, bench_brief, &stop_requested);
    }
    if (*copybench) return vidpipe::copybench_command(copybench_args);
    if (*trace_chart) return vidpipe::trace_png_command(trace_in, trace_png, trace_start, trace_window_ms);
  } catch (const vidpipe::ConfigError& e) {
    std::cerr << "vidpipe: config error: " << e.what() << "\n";
    return 2;
  } catch (const vidpipe::InputError& e) {
    std::cerr << "vidpipe: input error: " << e.what() << "\n";
    return 3;
  } catch (const vidpipe::OutputError& e) {
    std::cerr << "vidpipe: output error: " << e.what() << "\n";
    return 3;
  } catch (const vidpipe::StoppedBeforeStart& e) {
    std::cerr << "vidpipe: " << e.what() << "\n";
    return 130;
  } catch (const vidpipe::CudaError& e) {
    std::cerr << "vidpipe: " << e.what() << "\n";
    return 4;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the program met on the way (a symlink loop, a permission): an input/output error.
    std::cerr << "vidpipe: input error: '" << e.path1().string() << "': " << e.code().message() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    std::cerr << "vidpipe: input error: out of host memory (frames too large for this machine, or too many "
                 "buffers: lower copy.batch_size, copy.streams or reader.pool_frames)\n";
    return 3;
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "vidpipe: input error: " << e.what() << "\n";
    return 3;
  } catch (const std::system_error& e) {
    // No thread to be had (a memory or process limit: ulimit -v, -u, a container's pids):
    // out of host resources like bad_alloc, not an unexpected error.
    if (e.code() != std::errc::resource_unavailable_try_again && e.code() != std::errc::not_enough_memory) {
      std::cerr << "vidpipe: error: " << e.what() << "\n";
      return 1;
    }
    std::cerr << "vidpipe: input error: out of host resources: cannot start a thread (" << e.what()
              << "): raise the memory or process limit, or lower the inputs, copy.streams or decoder threads\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "vidpipe: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
