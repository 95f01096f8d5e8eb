#include <chrono>
#include <iostream>

#include "tools/bench.hpp"
#include "tools/density.hpp"
#include "tools/chart_render.hpp"
#include "commands.hpp"
#include "metrics/report.hpp"
#include "version.hpp"

namespace vidpipe {

namespace {

// bench.json (with where and when it ran), the chart, and the table; with --json the
// object goes on stdout and the table on stderr, as run --json does with the report.
int finish_bench(const Config& config, const RunArgs& args, nlohmann::json result, const std::string& table,
                 const char* chart_kind, bool drawable, std::chrono::system_clock::time_point started,
                 const std::atomic<bool>* stop) {
  result["environment"] = run_environment(started);
  std::ostream& out = args.json ? std::cerr : std::cout;
  out << table;
  if (!config.bench.json.empty()) {
    write_report(result, config.bench.json);
    out << "json: " << config.bench.json << "\n";
  }
  if (!config.bench.chart.empty() && drawable)
    render_chart(chart_kind, result, config.bench.chart, config.bench.json, out);
  if (args.json) std::cout << result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return stop && stop->load() ? 130 : 0;
}

}  // namespace

int bench_command(const RunArgs& args, bool brief, const std::atomic<bool>* stop) {
  const auto started = std::chrono::system_clock::now();
  const Config config = load_checked_config(args, true);
  check_inputs_exist(config);
  const BenchOutcome outcome = run_bench(config, stop);
  const std::string table = brief ? bench_brief(outcome) : bench_table(outcome) + "\n" + bench_brief(outcome);
  return finish_bench(config, args, outcome.json, table, "bench", !outcome.ladders.front().rows.empty(), started, stop);
}

int density_command(const RunArgs& args, const std::atomic<bool>* stop) {
  const auto started = std::chrono::system_clock::now();
  const Config config = load_checked_config(args, true);
  check_inputs_exist(config);
  const DensityOutcome outcome = run_density(config, stop);
  return finish_bench(config, args, outcome.json, density_table(outcome), "density", !outcome.steps.empty(), started,
                      stop);
}

}  // namespace vidpipe
