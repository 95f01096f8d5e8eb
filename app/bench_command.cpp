#include <iostream>

#include "tools/bench.hpp"
#include "tools/density.hpp"
#include "tools/chart_render.hpp"
#include "commands.hpp"
#include "metrics/report.hpp"

namespace vidpipe {

int bench_command(const RunArgs& args, bool brief, const std::atomic<bool>* stop) {
  const Config config = load_checked_config(args, true);
  check_inputs_exist(config);
  const BenchOutcome outcome = run_bench(config, stop);
  std::cout << (brief ? bench_brief(outcome) : bench_table(outcome) + "\n" + bench_brief(outcome));
  if (!config.bench.json.empty()) {
    write_report(outcome.json, config.bench.json);
    std::cout << "json: " << config.bench.json << "\n";
  }
  if (!config.bench.chart.empty() && !outcome.ladders.front().rows.empty())
    render_chart("bench", outcome.json, config.bench.chart, config.bench.json);
  return stop && stop->load() ? 130 : 0;
}

int density_command(const RunArgs& args, const std::atomic<bool>* stop) {
  const Config config = load_checked_config(args, true);
  check_inputs_exist(config);
  const DensityOutcome outcome = run_density(config, stop);
  std::cout << density_table(outcome);
  if (!config.bench.json.empty()) {
    write_report(outcome.json, config.bench.json);
    std::cout << "json: " << config.bench.json << "\n";
  }
  if (!config.bench.chart.empty() && !outcome.steps.empty())
    render_chart("density", outcome.json, config.bench.chart, config.bench.json);
  return stop && stop->load() ? 130 : 0;
}

}  // namespace vidpipe
