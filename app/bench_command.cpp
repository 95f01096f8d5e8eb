#include <iostream>

#include "tools/bench.hpp"
#include "commands.hpp"
#include "metrics/report.hpp"

namespace vidpipe {

int bench_command(const RunArgs& args, bool brief, const std::atomic<bool>* stop) {
  const Config config = load_checked_config(args, true);
  const BenchOutcome outcome = run_bench(config, stop);
  std::cout << (brief ? bench_brief(outcome) : bench_table(outcome) + "\n" + bench_brief(outcome));
  if (!config.bench.json.empty()) {
    write_report(outcome.json, config.bench.json);
    std::cout << "json: " << config.bench.json << "\n";
  }
  if (!config.bench.chart.empty() && !outcome.ladders.front().rows.empty()) {
    write_bench_chart(outcome, config.bench.chart);
    std::cout << "chart: " << config.bench.chart << "\n";
  }
  return stop && stop->load() ? 130 : 0;
}

}  // namespace vidpipe
