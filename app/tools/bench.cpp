#include "tools/bench.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "memory/cuda_raii.hpp"

namespace vidpipe {
namespace {

std::string file_safe(std::string s) {
  for (char& c : s)
    if (c == ' ') c = '-';
  return s;
}

std::string trace_path_for(const std::string& trace, const std::string& mode) {
  if (trace.empty()) return "";
  const std::filesystem::path p(trace);
  return (p.parent_path() / (p.stem().string() + "." + file_safe(mode) + p.extension().string())).string();
}

struct Rung {
  std::string name;
  Config config;
};

// The rung whose file is split over the CPU decoder and NVDEC sessions (reader.decoders).
const std::string mixed_rung = "+ cpu+nvdec";

// Each rung changes one thing from the rung below it.
std::vector<Rung> ladder_rungs(const Config& base, std::vector<std::string>& notes) {
  std::vector<Rung> rungs;
  Config c = base;
  // A list of kinds is the cpu+nvdec rung's; the rungs below it decode with one kind.
  if (base.reader.decoders.mixed()) c.reader.decoders = {};
  c.copy.mode = CopyMode::sync;
  c.copy.memory = HostMemory::pageable;
  c.copy.streams = 1;
  c.copy.batch_size = 1;
  rungs.push_back({"naive", c});
  c.copy.memory = HostMemory::pinned;
  rungs.push_back({"+ pinned", c});
  c.copy.mode = CopyMode::async;
  rungs.push_back({"+ async", c});
  for (int n : base.bench.streams) {
    if (n == 1) continue;
    c.copy.streams = n;
    rungs.push_back({fmt::format("+ {} streams", n), c});
  }
  if (base.bench.batch > 1) {
    c.copy.batch_size = base.bench.batch;
    rungs.push_back({fmt::format("+ batch {}", base.bench.batch), c});
  }
  // NVDEC removes the H2D copy altogether: the rung shows what is left when it goes.
  if (c.input.preload > 0) return rungs;
  if (cuda::device_count() > base.gpu.device && base.device != DeviceChoice::cpu) {
    c.reader.decoder = Decoder::nvdec;
    rungs.push_back({"+ NVDEC", c});
    // The CPU threads and the NVDEC engines on one file at once: each alone leaves the
    // other idle (the list given, else every kind the machine has).
    c.reader.decoder = Decoder::cpu;
    c.reader.decoders = base.reader.decoders.mixed() ? base.reader.decoders : DecoderList{1, {}, true};
    rungs.push_back({mixed_rung, c});
  } else {
    notes.push_back("nvdec: no CUDA device here, so no NVDEC or cpu+nvdec rung");
  }
  return rungs;
}

const BenchRow* find_rung(const std::vector<BenchRow>& rows, const std::string& name) {
  for (const BenchRow& r : rows)
    if (r.rung == name) return &r;
  return nullptr;
}

// Runs one rung; a rung that fails is kept with its reason and the ladder goes on.
BenchRow run_rung(const Rung& rung, const Config& base, const std::atomic<bool>* stop) {
  BenchRow row{rung.name, mode_label(rung.config)};
  Config c = rung.config;
  c.metrics.trace = trace_path_for(base.metrics.trace, row.mode);
  c.metrics.detections.clear();  // every rung sees the same faces: `vidpipe run` writes them
  spdlog::info("bench: {} ({})", row.rung, row.mode);
  try {
    row.result = run_pipeline(c, stop);
    row.mode = row.result.mode;  // as run: on the CPU path "pinned" falls back to pageable
    if (row.result.error) std::rethrow_exception(row.result.error);
  } catch (const std::exception& e) {
    row.error = e.what();
    spdlog::warn("bench: {} failed: {}", row.rung, row.error);
  }
  return row;
}

// The forecast of an async rung: from the limits measured before the ladder where there
// are some, else from the sync pinned rung's own stage times (predict_async).
void add_forecast(BenchRow& r, const BenchRow* sync_pinned, const std::optional<BenchLimits>& ladder_limits) {
  const nlohmann::json& config = r.result.report.at("config");
  if (config.at("copy").at("mode") != "async" || config.at("reader").at("decoder") == "nvdec") return;
  const bool mixed = r.rung == mixed_rung;
  if (mixed && !(ladder_limits && ladder_limits->mixed_decoder_fps > 0)) return;
  const std::optional<BenchLimits> limits = mixed ? ladder_limits->with_mixed_decoders() : ladder_limits;
  const int streams = config.at("copy").at("streams"), batch = config.at("copy").at("batch_size");
  const double sink_ms = sync_pinned ? sync_pinned->result.summary.sink.mean_ms : 0;
  if (limits) {
    const BenchLimits::Forecast f = limits->forecast(streams, batch, sink_ms);
    r.predicted_fps = f.fps;
    r.predicted_bound = f.bound;
    const double lowest = limits->lowest(streams, batch);
    if (lowest > 0) r.limit_share = r.result.summary.fps / lowest;
  } else if (sync_pinned) {
    const Prediction p = predict_async(sync_pinned->result.summary, streams);
    r.predicted_fps = p.fps;
    r.predicted_bound = p.bound;
  }
}

void add_ratios(BenchLadder& ladder) {
  std::vector<BenchRow>& rows = ladder.rows;
  const BenchRow* first = nullptr;
  const BenchRow* previous = nullptr;
  const BenchRow* sync_pinned = rows.size() > 1 && rows[1].ok() ? &rows[1] : nullptr;
  for (BenchRow& r : rows) {
    if (!r.ok()) continue;
    const double fps = r.result.summary.fps;
    if (!first) first = &r;
    r.speedup = first->result.summary.fps > 0 ? fps / first->result.summary.fps : 0;
    r.speedup_over_previous = previous && previous->result.summary.fps > 0 ? fps / previous->result.summary.fps : 1;
    add_forecast(r, sync_pinned, ladder.limits);
    previous = &r;
  }
}

// The (streams, batch) of each async rung, for the GPU stage's own rate at each.
std::vector<std::pair<int, int>> async_shapes(const std::vector<Rung>& rungs) {
  std::vector<std::pair<int, int>> shapes;
  for (const Rung& r : rungs)
    if (r.config.copy.mode == CopyMode::async && r.config.reader.decoder != Decoder::nvdec)
      shapes.emplace_back(r.config.copy.streams, r.config.copy.batch_size);
  return shapes;
}

nlohmann::json row_json(const BenchRow& r) {
  if (!r.ok()) return {{"rung", r.rung}, {"mode", r.mode}, {"status", "failed"}, {"error", r.error}};
  const Summary& s = r.result.summary;
  return {{"rung", r.rung},
          {"mode", r.mode},
          {"status", "ok"},
          {"fps", s.fps},
          {"speedup", r.speedup},
          {"speedup_over_previous", r.speedup_over_previous},
          {"predicted_fps", r.predicted_fps},
          {"predicted_bound", r.predicted_bound},
          {"limit_share", r.limit_share},
          {"copy_wait_share", s.copy_wait_share},
          {"gpu_busy_share", s.gpu_busy_share},
          {"h2d_GB_per_s", s.h2d_gbps},
          {"d2h_GB_per_s", s.d2h_gbps},
          {"p99_latency_ms", s.latency.p99_ms},
          {"bottleneck", s.bottleneck.stage},
          {"warmup_included", s.warmup_included},
          {"report", r.result.report}};
}

BenchLadder run_ladder(const std::string& name, const Config& base, const std::atomic<bool>* stop,
                       std::vector<std::string>& notes) {
  BenchLadder ladder{name, {}, std::nullopt};
  const std::vector<Rung> rungs = ladder_rungs(base, notes);
  try {
    spdlog::info("bench: measuring the limits of the {} ladder", name);
    ladder.limits = measure_limits(base, base.input.preload == 0, async_shapes(rungs), stop);
    for (const Rung& r : rungs)
      if (r.name == mixed_rung) measure_mixed_decoders(r.config, *ladder.limits, stop);
  } catch (const std::exception& e) {
    notes.push_back(fmt::format("{}: limits not measured: {}", name, e.what()));
  }
  for (const Rung& rung : rungs) {
    if (stop && stop->load()) break;
    ladder.rows.push_back(run_rung(rung, base, stop));
  }
  add_ratios(ladder);
  return ladder;
}

}  // namespace

BenchOutcome run_bench(const Config& base, const std::atomic<bool>* stop) {
  BenchOutcome out;
  out.ladders.push_back(run_ladder("decoded", base, stop, out.notes));
  if (base.bench.preload > 0 && !(stop && stop->load())) {
    Config preloaded = base;
    preloaded.input.preload = base.bench.preload;
    preloaded.input.loop = true;
    if (preloaded.input.max_frames == 0) preloaded.input.max_frames = 300;
    out.ladders.push_back(run_ladder(fmt::format("preloaded {}", base.bench.preload), preloaded, stop, out.notes));
  }
  nlohmann::json ladders = nlohmann::json::array();
  for (const BenchLadder& l : out.ladders) {
    nlohmann::json rows = nlohmann::json::array();
    for (const BenchRow& r : l.rows) rows.push_back(row_json(r));
    ladders.push_back({{"name", l.name}, {"rows", rows}, {"limits", l.limits ? l.limits->json() : nlohmann::json()}});
  }
  const BenchRow* any = out.ladders.front().rows.empty() ? nullptr : &out.ladders.front().rows.front();
  out.json = {{"schema_version", bench_schema_version},
              {"kind", "ladder"},
              {"input", base.input.uri},
              {"device", any && any->ok() ? any->result.device : ""},
              {"rows", ladders.front().at("rows")},
              {"ladders", ladders},
              {"notes", out.notes},
              // A ladder cut short by Ctrl-C is not to be read as a whole one.
              {"interrupted", stop != nullptr && stop->load()}};
  return out;
}

namespace {

// The mixed rung against the best single-kind rung of the same ladder (issue 32 asks 1.3x),
// with each of its decoders' rate and busy share.
std::string mixed_findings(const BenchLadder& l) {
  const BenchRow* mixed = find_rung(l.rows, mixed_rung);
  if (!mixed || !mixed->ok()) return "";
  const BenchRow* best_single = nullptr;
  for (const BenchRow& r : l.rows)
    if (r.ok() && &r != mixed && (!best_single || r.result.summary.fps > best_single->result.summary.fps))
      best_single = &r;
  if (!best_single || best_single->result.summary.fps <= 0) return "";
  std::string t = fmt::format("  cpu+nvdec: {:.2f}x the best single-kind rung ({}, {:.1f} fps)",
                              mixed->result.summary.fps / best_single->result.summary.fps, best_single->mode,
                              best_single->result.summary.fps);
  const nlohmann::json& split = mixed->result.report.at("inputs").at(0).at("split_decoders");
  for (const nlohmann::json& d : split)
    t += fmt::format("; {} {:.0f} fps, busy {:.0f}%", d.at("kind").get<std::string>(), d.at("fps").get<double>(),
                     100 * d.at("busy_share").get<double>());
  return t + "\n";
}

// What the ladder says against its limits: the best async rung's share of the lowest limit,
// and the CPU-decoded, decode-bound rungs' share of the decoder alone (an NVDEC rung has a
// different decoder, so it is not held against that one).
std::string ladder_findings(const BenchLadder& l) {
  if (!l.limits) return "";
  std::string t;
  const BenchRow* best = nullptr;
  for (const BenchRow& r : l.rows)
    if (r.ok() && r.limit_share > 0 && (!best || r.result.summary.fps > best->result.summary.fps)) best = &r;
  if (best)
    t += fmt::format("  best async rung ({}): {:.1f} fps, {:.0f}% of the lowest limit measured\n",
                     best->mode, best->result.summary.fps, 100 * best->limit_share);
  for (const BenchRow& r : l.rows) {
    if (!r.ok() || r.result.summary.bottleneck.stage != "decode") continue;
    if (r.rung == mixed_rung && l.limits->mixed_decoder_fps > 0)
      t += fmt::format("  {} is decode-bound at {:.0f}% of its decoders alone\n", r.mode,
                       100 * r.result.summary.fps / l.limits->mixed_decoder_fps);
    else if (r.rung != mixed_rung && l.limits->decoder_fps > 0 &&
             r.result.report.at("config").at("reader").at("decoder") != "nvdec")
      t += fmt::format("  {} is decode-bound at {:.0f}% of the decoder alone\n", r.mode,
                       100 * r.result.summary.fps / l.limits->decoder_fps);
  }
  t += mixed_findings(l);
  return t;
}

// A rung that ran fewer frames than the warm-up has its warm-up in its figures.
std::string short_rung_notes(const BenchLadder& l) {
  std::string t;
  for (const BenchRow& r : l.rows)
    if (r.ok() && r.result.summary.warmup_included)
      t += fmt::format("  {}: {} frames, fewer than the warm-up (metrics.warmup_frames), so its figures are not "
                       "meaningful\n", r.rung, r.result.summary.frames);
  return t;
}

}  // namespace

// Whether the ladder's compute stage ran on the CPU twins (no GPU): its figures say "cpu",
// never "gpu", so a run with no GPU cannot be read as a GPU's.
bool on_cpu(const BenchLadder& l) {
  for (const BenchRow& r : l.rows)
    if (r.ok()) return r.result.device == "cpu";
  return false;
}

std::string ladder_title(const BenchLadder& l) {
  const std::string stage = on_cpu(l) ? "compute stage on the CPU" : "GPU stage";
  return l.name == "decoded" ? "whole pipeline (decode, " + stage + ", sink)"
                             : stage + " alone (" + l.name + " frames)";
}

std::string bench_table(const BenchOutcome& o) {
  std::string t;
  for (const BenchLadder& l : o.ladders) {
    t += l.name + ":\n";
    if (l.limits) t += "limits, measured before the rungs:\n" + l.limits->table();
    t += fmt::format("{:<12} {:<32} {:>8} {:>8} {:>8} {:>9} {:>8} {:>9} {:>8} {:>9}\n", "rung", "mode", "fps", "x naive",
                     "x above", "copy-wait", on_cpu(l) ? "cpu busy" : "gpu busy", "predicted", "of limit", "bound by");
    for (const BenchRow& r : l.rows) {
      if (!r.ok()) {
        t += fmt::format("{:<12} {:<32} failed: {}\n", r.rung, r.mode, r.error);
        continue;
      }
      const Summary& s = r.result.summary;
      const std::string predicted = r.predicted_fps > 0 ? fmt::format("{:.1f}", r.predicted_fps) : "-";
      const std::string of_limit = r.limit_share > 0 ? fmt::format("{:.0f}%", 100 * r.limit_share) : "-";
      t += fmt::format("{:<12} {:<32} {:>8.1f} {:>7.2f}x {:>7.2f}x {:>8.1f}% {:>7.1f}% {:>9} {:>8} {:>9}\n", r.rung,
                       r.mode, s.fps, r.speedup, r.speedup_over_previous, 100 * s.copy_wait_share,
                       100 * s.gpu_busy_share, predicted, of_limit, s.bottleneck.stage);
    }
    t += ladder_findings(l);
    t += short_rung_notes(l);
  }
  for (const std::string& n : o.notes) t += "note: " + n + "\n";
  return t;
}

std::string bench_brief(const BenchOutcome& o) {
  std::string t;
  for (const BenchLadder& l : o.ladders) {
    const BenchRow* naive = !l.rows.empty() && l.rows.front().ok() ? &l.rows.front() : nullptr;
    const BenchRow* best = nullptr;
    for (const BenchRow& r : l.rows)
      if (r.ok() && (!best || r.result.summary.fps > best->result.summary.fps)) best = &r;
    const std::string what = ladder_title(l);
    if (!naive || !best) {
      t += what + ": no rung ran\n";
      continue;
    }
    t += fmt::format("{}: {} {:.1f} fps -> {} {:.1f} fps: {:.2f}x\n", what, naive->mode, naive->result.summary.fps,
                     best->mode, best->result.summary.fps, best->speedup);
    t += fmt::format("  {}: {}\n", naive->mode, naive->result.summary.bottleneck.evidence);
    if (best != naive) t += fmt::format("  {}: {}\n", best->mode, best->result.summary.bottleneck.evidence);
    if (naive->result.summary.warmup_included || best->result.summary.warmup_included)
      t += "  fewer frames than the warm-up (metrics.warmup_frames): these figures are not meaningful\n";
  }
  return t;
}

}  // namespace vidpipe
