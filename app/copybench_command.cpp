#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "tools/copybench.hpp"
#include "tools/chart_render.hpp"
#include "memory/cuda_raii.hpp"
#include "base/errors.hpp"
#include "metrics/report.hpp"
#include "version.hpp"

namespace vidpipe {

namespace {

std::size_t parse_size(const std::string& s) {
  std::size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(s, &pos);
  } catch (const std::exception&) {
    throw ConfigError("--sizes: '" + s + "' is not a size (e.g. 64K, 4M, 512M)");
  }
  const std::string unit = s.substr(pos);
  const double scale = unit == "K" ? 1024.0 : unit == "M" ? 1024.0 * 1024 : unit == "G" ? 1024.0 * 1024 * 1024 : unit.empty() ? 1.0 : -1;
  if (scale < 0 || v <= 0) throw ConfigError("--sizes: '" + s + "' is not a size (e.g. 64K, 4M, 512M)");
  return static_cast<std::size_t>(v * scale);
}

}  // namespace

void add_copybench_options(CLI::App& cmd, CopyBenchArgs& args) {
  cmd.add_option("--sizes", args.sizes, "Copy sizes (default 64K 256K 1M 4M 16M 64M 256M 512M)");
  cmd.add_option("--streams", args.streams, "Stream counts to try")->capture_default_str();
  cmd.add_option("--repeats", args.repeats, "Timed copies per point (median)")->capture_default_str()->check(CLI::Range(1, 1000));
  cmd.add_flag("--cpu", args.cpu, "Measure memcpy instead of CUDA copies (automatic without a GPU)");
  cmd.add_option("-o,--out", args.out, "JSON file to write (empty: none)")->capture_default_str();
  cmd.add_flag("--json", args.json, "Print the JSON on stdout instead of the table (the table goes to stderr)");
  cmd.add_option("--chart", args.chart, "PNG plot (empty: none)")->capture_default_str();
}

int copybench_command(const CopyBenchArgs& args) {
  CopyBenchOptions o;
  for (const std::string& s : args.sizes) o.sizes.push_back(parse_size(s));
  o.streams = args.streams;
  for (int s : o.streams)
    if (s < 1 || s > 32) throw ConfigError("--streams: every count must be between 1 and 32, got " + std::to_string(s));
  o.repeats = args.repeats;
  o.cpu = args.cpu || cuda::device_count() == 0;
  const auto started = std::chrono::system_clock::now();
  const CopyBenchResult r = run_copybench(o);
  nlohmann::json result = r.json();
  result["environment"] = run_environment(started);
  std::ostream& table = args.json ? std::cerr : std::cout;
  table << copybench_table(r);
  if (!args.out.empty()) {
    write_report(result, args.out);
    table << "json: " << args.out << "\n";
  }
  if (!args.chart.empty()) render_chart("copybench", result, args.chart, args.out, table);
  if (args.json) std::cout << result.dump(2) << "\n";
  return 0;
}

}  // namespace vidpipe
