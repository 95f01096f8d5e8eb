#include "tools/density.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <thread>

#include "base/clock.hpp"
#include "run/pipeline.hpp"
#include "tools/bench.hpp"
#include "tools/density_climb.hpp"
#include "source/frame_sources.hpp"

namespace vidpipe {
namespace {

// Whether the copies start out of step: bench.density_stagger, unless the file is split over
// decoders (input.stagger leaves a split file at its start).
bool staggers(const Config& base) { return base.bench.density_stagger && !base.reader.decoders.splits(); }

// `inputs` copies of the base input, each playing `frames` frames, metrics kept quiet. The
// first second of video is the warm-up: a step is judged on what follows it, as a camera
// system is on its steady state, not on the frames its start-up costs (those are counted
// and shown too).
Config step_config(const Config& base, int inputs, std::int64_t frames, bool realtime, double fps = 0) {
  Config c = base;
  if (fps > 0) c.metrics.warmup_frames = static_cast<int>(std::lround(fps)) * inputs;
  c.inputs.assign(static_cast<std::size_t>(inputs), input_uris(base).front());
  c.input.realtime = realtime;
  c.input.loop = true;
  c.input.stagger = staggers(base);
  c.input.max_frames = frames;
  c.sink.kind = SinkKind::null;
  c.metrics.live = false;
  c.metrics.report.clear();
  c.metrics.trace.clear();
  c.metrics.detections.clear();
  c.metrics.listen.clear();
  return c;
}

// N decoders at once with nothing behind them, as the pipeline opens them: the ceiling a
// many-input run is read against. Frames a second over all of them, from the first frame
// any delivered to the last.
double decoders_alone_fps(const Config& c, const std::atomic<bool>* stop) {
  std::vector<ReaderOptions> options;
  const std::vector<std::string> uris = input_uris(c);
  for (std::size_t i = 0; i < uris.size(); ++i) {
    // Pageable: what the decoders can do, not what pinning their pools costs.
    ReaderOptions ro{uris[i], c.input, c.reader, HostMemory::pageable};
    ro.start_fraction = stagger_fraction(c.input, i, uris.size());
    ro.input.realtime = false;
    ro.reader.threads = decoder_threads_each(c.reader, static_cast<int>(c.inputs.size()));
    ro.in_flight = 4;
    ro.cuda_device = c.gpu.device;
    ro.cancel = stop;
    options.push_back(ro);
  }
  std::vector<std::unique_ptr<VideoReader>> readers = open_readers(options);
  std::vector<std::int64_t> counts(readers.size(), 0);
  std::vector<double> first(readers.size(), 0), last(readers.size(), 0);
  std::vector<std::exception_ptr> errors(readers.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < readers.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        while (counts[i] < c.input.max_frames && !(stop && stop->load())) {
          if (!readers[i]->next()) break;
          last[i] = steady_seconds();
          if (counts[i]++ == 0) first[i] = last[i];
        }
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  const double from = *std::min_element(first.begin(), first.end());
  const double to = *std::max_element(last.begin(), last.end());
  std::int64_t frames = 0;
  for (std::int64_t n : counts) frames += n;
  return to > from ? static_cast<double>(frames - static_cast<std::int64_t>(readers.size())) / (to - from) : 0.0;
}

void read_live_run(const RunResult& r, double latency_limit_ms, DensityStep& step) {
  const Summary& s = r.summary;
  double sum = 0;
  for (double fps : s.input_fps) sum += fps;
  step.per_input_fps = s.input_fps.empty() ? 0 : sum / static_cast<double>(s.input_fps.size());
  step.dropped = s.frames_dropped;
  step.dropped_measured = s.frames_dropped_measured;
  step.latency_p99_ms = s.latency.p99_ms;
  step.live_lag_p99_ms = s.live_lag.p99_ms;
  step.wall_s = s.wall_s;
  step.startup_s = s.first.delivered_s;
  step.bound = s.bottleneck.stage;
  step.bound_evidence = s.bottleneck.evidence;
  step.held = step.dropped_measured == 0 && step.latency_p99_ms <= latency_limit_ms;
}

// The decoders alone and the pipeline flat out play at least this many inputs' worth of the
// live step's frames over all inputs: one input's 180 frames took a fifth of a second flat
// out, a window the pipeline's start-up (its pools pinning, its first batches) filled, which
// showed one CPU-decoded 1080p input at 22% of its decoder (H100, 2026-12-08). Ten inputs'
// worth is a second or more wherever the decoders carry up to ten times that many live.
constexpr std::int64_t min_flat_out_inputs_worth = 10;

DensityStep run_step(const Config& base, int inputs, double source_fps, const std::atomic<bool>* stop) {
  DensityStep step;
  step.inputs = inputs;
  step.source_fps = source_fps;
  const auto frames = std::max<std::int64_t>(1, std::llround(source_fps * (base.bench.density_seconds + 1)));
  spdlog::info("density: {} input{} in real time", inputs, inputs == 1 ? "" : "s");
  try {
    const RunResult live = run_pipeline(step_config(base, inputs, frames, true, source_fps), stop);
    if (live.error) std::rethrow_exception(live.error);
    read_live_run(live, base.bench.latency_ms, step);
    if (stop && stop->load()) return step;
    spdlog::info("density: {} decoders alone, then the pipeline as fast as it goes", inputs);
    const std::int64_t flat_out_frames = std::max(frames, (min_flat_out_inputs_worth * frames + inputs - 1) / inputs);
    step.decoders_alone_fps = decoders_alone_fps(step_config(base, inputs, flat_out_frames, false), stop);
    step.flat_out_fps = run_pipeline(step_config(base, inputs, flat_out_frames, false), stop).summary.fps;
  } catch (const std::exception& e) {
    step.error = e.what();
    step.held = false;
    spdlog::warn("density: {} inputs failed: {}", inputs, step.error);
  }
  return step;
}

nlohmann::json step_json(const DensityStep& s) {
  return {{"inputs", s.inputs},
          {"held", s.held},
          {"error", s.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.error)},
          {"source_fps", s.source_fps},
          {"per_input_fps", s.per_input_fps},
          {"frames_dropped", s.dropped},
          {"frames_dropped_measured", s.dropped_measured},
          {"latency_p99_ms", s.latency_p99_ms},
          {"live_lag_p99_ms", s.live_lag_p99_ms},
          {"wall_s", s.wall_s},
          {"first_frame_out_s", s.startup_s},
          {"bottleneck", s.bound},
          {"bottleneck_evidence", s.bound_evidence},
          {"decoders_alone_fps", s.decoders_alone_fps},
          {"flat_out_fps", s.flat_out_fps},
          {"flat_out_share_of_decoders",
           s.decoders_alone_fps > 0 ? nlohmann::json(s.flat_out_fps / s.decoders_alone_fps) : nlohmann::json(nullptr)}};
}

const DensityStep* step_with(const DensityOutcome& o, int inputs) {
  for (const DensityStep& s : o.steps)
    if (s.inputs == inputs) return &s;
  return nullptr;
}

nlohmann::json held_share_json(const DensityOutcome& o) {
  const double share = held_share_of_decoders(o);
  return share > 0 ? nlohmann::json(share) : nlohmann::json(nullptr);
}

}  // namespace

double held_share_of_decoders(const DensityOutcome& o) {
  const DensityStep* held = step_with(o, o.held);
  const DensityStep* failed = step_with(o, o.failed);
  if (!held || !failed || failed->decoders_alone_fps <= 0) return 0;
  return held->inputs * held->source_fps / failed->decoders_alone_fps;
}

DensityOutcome run_density(const Config& base, const std::atomic<bool>* stop) {
  DensityOutcome out;
  out.input = input_uris(base).front();
  out.latency_ms = base.bench.latency_ms;
  out.staggered = staggers(base);
  // One frame through the pipeline first: the clip's own rate (what "real time" means here),
  // the device and the decoder as they really run.
  const RunResult probe = run_pipeline(step_config(base, 1, 1, false), stop);
  out.device = probe.device;
  out.decoder = probe.input.decoder;
  DensityClimb climb(base.bench.density_max, base.bench.density_refine);
  for (int n = climb.next(); n != 0 && !(stop && stop->load()); n = climb.next()) {
    out.steps.push_back(run_step(base, n, probe.input.fps, stop));
    climb.record(n, out.steps.back().held);
  }
  out.held = climb.held();
  out.failed = climb.failed();
  std::sort(out.steps.begin(), out.steps.end(), [](const DensityStep& a, const DensityStep& b) {
    return a.inputs < b.inputs;
  });
  nlohmann::json steps = nlohmann::json::array();
  for (const DensityStep& s : out.steps) steps.push_back(step_json(s));
  out.json = {{"schema_version", bench_schema_version}, {"kind", "density"},  {"input", out.input},           {"device", out.device},
              {"decoder", out.decoder}, {"latency_limit_ms", out.latency_ms}, {"held_inputs", out.held},
              {"first_not_held", out.failed == 0 ? nlohmann::json(nullptr) : nlohmann::json(out.failed)},
              {"staggered", out.staggered},
              {"held_share_of_decoders", held_share_json(out)},
              {"steps", steps}, {"interrupted", stop != nullptr && stop->load()}};
  return out;
}

std::string density_table(const DensityOutcome& o) {
  std::string t = fmt::format("density: live copies of {} ({}) on {} ({} decoder), held = no drop after the "
                              "first second and p99 latency <= {:.0f} ms\n",
                              o.input, o.staggered ? "started out of step" : "all started at its beginning",
                              o.device, o.decoder, o.latency_ms);
  t += fmt::format("{:>6} {:>6} {:>10} {:>13} {:>9} {:>9} {:>8} {:>10} {:>10} {:>8}  {}\n", "inputs", "held",
                   "fps/input", "dropped (all)", "p99 ms", "lag p99", "wall s", "decoders", "flat out", "share",
                   "bound by");
  for (const DensityStep& s : o.steps) {
    if (!s.error.empty()) {
      t += fmt::format("{:>6} {:>6}  failed: {}\n", s.inputs, "no", s.error);
      continue;
    }
    const std::string share = s.decoders_alone_fps > 0 ? fmt::format("{:.0f}%", 100 * s.flat_out_fps / s.decoders_alone_fps)
                                                       : "-";
    const std::string dropped = fmt::format("{} ({})", s.dropped_measured, s.dropped);
    t += fmt::format("{:>6} {:>6} {:>10.1f} {:>13} {:>9.1f} {:>9.1f} {:>8.2f} {:>10.1f} {:>10.1f} {:>8}  {}\n", s.inputs,
                     s.held ? "yes" : "no", s.per_input_fps, dropped, s.latency_p99_ms, s.live_lag_p99_ms, s.wall_s,
                     s.decoders_alone_fps, s.flat_out_fps, share, s.bound);
  }
  t += "  dropped: after the first second (in all); decoders, flat out: frames a second over all inputs, decoders "
       "alone and the whole pipeline as fast as it goes; share: the second over the first\n";
  t += fmt::format("held in real time: {} input{}\n", o.held, o.held == 1 ? "" : "s");
  if (const double share = held_share_of_decoders(o); share > 0) {
    const DensityStep& failed = *step_with(o, o.failed);
    t += fmt::format("  {:.0f}% of what the decoders alone carried at {} inputs ({:.1f} fps, {:.1f} inputs' worth)\n",
                     100 * share, failed.inputs, failed.decoders_alone_fps,
                     failed.decoders_alone_fps / failed.source_fps);
  }
  if (o.failed > 0) {
    const DensityStep& failed = *step_with(o, o.failed);
    const std::string why = !failed.error.empty() ? failed.error
                            : failed.dropped_measured > 0
                                ? fmt::format("{} frames dropped after the first second", failed.dropped_measured)
                                                 : fmt::format("p99 latency {:.1f} ms over {:.0f} ms",
                                                               failed.latency_p99_ms, o.latency_ms);
    t += fmt::format("first not held at {} inputs: {}", failed.inputs, why);
    if (!failed.bound_evidence.empty()) t += "; " + failed.bound_evidence;
    t += "\n";
  }
  return t;
}

}  // namespace vidpipe
