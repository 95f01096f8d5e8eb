// `vidpipe bench --density`: how many live copies of one clip a machine holds in real time,
// the way many-camera deployments run. Steps of 1, 2, 4, ... inputs (bench.density_max at
// most), each playing bench.density_seconds of the clip at its own rate; a step holds when no
// input drops a frame and p99 latency is within bench.latency_ms. The first step that fails
// ends the doubling, and bench.density_refine steps halve the gap (density_climb.hpp); every
// step is kept, with the stage that bounds it. Each step also measures, in the
// same process, the same number of decoders alone (nothing behind them) and the whole
// pipeline as fast as it goes, so a rate is read as a share of the decoders' ceiling.
#pragma once
#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace vidpipe {

struct DensityStep {
  int inputs = 0;
  std::string error;             // the live run failed: why (the step does not hold)
  double per_input_fps = 0;      // live run: the inputs' mean rate over the measured window
  double source_fps = 0;         // what each input plays at
  std::int64_t dropped = 0;      // live run: frames dropped, all inputs
  std::int64_t dropped_measured = 0;  // of those, after the warm-up (the first second)
  double latency_p99_ms = 0;     // live run: decoded to out of the sink
  double live_lag_p99_ms = 0;    // live run: how far behind its stream's clock a frame came out
  double wall_s = 0;             // live run: the whole run, start-up included
  double startup_s = 0;          // live run: to the first frame out of the sink
  std::string bound;             // live run: the stage that bounds it
  std::string bound_evidence;
  double decoders_alone_fps = 0;  // N decoders at once with nothing behind them, all inputs
  double flat_out_fps = 0;        // the whole pipeline as fast as it goes, all inputs
  bool held = false;
};

struct DensityOutcome {
  std::string input;
  std::string device;
  std::string decoder;
  double latency_ms = 0;
  bool staggered = false;  // the copies started out of step (bench.density_stagger)
  std::vector<DensityStep> steps;
  int held = 0;    // the most inputs held (0: not even one)
  int failed = 0;  // the fewest inputs not held (0: every step held)
  nlohmann::json json;
};

DensityOutcome run_density(const Config& base, const std::atomic<bool>* stop);
// What the inputs held send (held x their rate) over what the decoders alone carried at the
// fewest inputs not held, the nearest measured ceiling; 0 where no step failed or none held.
double held_share_of_decoders(const DensityOutcome& outcome);
std::string density_table(const DensityOutcome& outcome);

}  // namespace vidpipe
