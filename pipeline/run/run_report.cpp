#include "run/run_report.hpp"

#include <fmt/format.h>

#include "metrics/prediction.hpp"
#include "metrics/report.hpp"
#include "run/pipeline.hpp"

namespace vidpipe {

// The mode as it ran: p.config already says pageable where pinned fell back; an NVDEC that
// did not start for an input shows here, since its reader decoded on the CPU instead.
std::string mode_as_run(const PipelineParts& p) {
  std::string mode = mode_label(p.config);
  const std::string mixed = " cpu+nvdec";
  if (const auto at = mode.find(mixed); at != std::string::npos) {
    int split = 0;
    for (int i = 0; i < p.sources->count(); ++i) split += p.sources->reader(i).info().decoder == "cpu+nvdec";
    if (split < p.sources->count())
      mode.replace(at, mixed.size(), fmt::format(" cpu+nvdec (for {} of {} inputs: the others on one kind)", split,
                                                 p.sources->count()));
    return mode;
  }
  int fell_back = 0;
  for (int i = 0; i < p.sources->count(); ++i) fell_back += p.sources->reader(i).info().decoder != "nvdec";
  const std::string nvdec = " nvdec";
  const auto at = mode.find(nvdec);
  if (fell_back == 0 || at == std::string::npos) return mode;
  const std::string what = fell_back == p.sources->count()
                               ? " cpu-decode (nvdec did not start)"
                               : fmt::format(" nvdec (did not start for {} of {} inputs)", fell_back, p.sources->count());
  return mode.replace(at, nvdec.size(), what);
}
namespace {

// What one input's start cost: opening (an NVDEC session's start within) and pinning its pool.
nlohmann::json input_startup_json(const VideoInfo& info, const FramePool& pool) {
  const double pinned = pool.filling_seconds();
  return {{"open_s", info.open_s},
          {"nvdec_start_s", info.nvdec_start_s},
          {"pool_frames", pool.capacity()},
          {"pool_MB", static_cast<double>(pool.capacity() * pool.buffer_bytes()) / 1e6},
          {"pool_filled_s", pinned < 0 ? nlohmann::json(nullptr) : nlohmann::json(pinned)}};
}

// A split file's decoders: the segments and frames each took, and its rate while decoding.
nlohmann::json split_json(const VideoReader& reader, double wall_s) {
  nlohmann::json decoders = nlohmann::json::array();
  const std::vector<SegmentDealer::DecoderFigures> figures = reader.split_figures();
  const std::vector<Decoder>& kinds = reader.split_kinds();
  for (std::size_t k = 0; k < figures.size(); ++k) {
    const SegmentDealer::DecoderFigures& d = figures[k];
    decoders.push_back({{"kind", k < kinds.size() ? to_string(kinds[k]) : "cpu"},
                        {"segments", d.segments},
                        {"frames", d.frames},
                        {"fps", d.fps()},
                        {"busy_share", wall_s > 0 ? std::min(1.0, d.busy_s / wall_s) : 0.0}});
  }
  return decoders;
}

nlohmann::json inputs_json(const PipelineParts& p, const Summary& s) {
  const FrameSources& sources = *p.sources;
  nlohmann::json inputs = nlohmann::json::array();
  for (int i = 0; i < sources.count(); ++i) {
    const VideoInfo& info = sources.reader(i).info();
    const bool measured = i < static_cast<int>(s.input_fps.size());
    inputs.push_back({{"uri", info.uri}, {"codec", info.codec}, {"decoder", info.decoder},
                      {"decoder_threads", info.decoder_threads}, {"decoders", info.decoders},
                      {"preloaded", info.preloaded},
                      {"width", info.width}, {"height", info.height}, {"source_fps", info.fps},
                      {"live", sources.live(i)}, {"frames_decoded", sources.decoded(i)},
                      {"frames_dropped", sources.dropped(i)},
                      {"frames_measured", measured ? s.input_frames_measured[i] : 0},
                      {"fps", measured ? s.input_fps[i] : 0.0}, {"decode_errors", sources.reader(i).decode_errors()},
                      {"reconnects", sources.reader(i).reconnects()},
                      {"reconnecting", sources.reader(i).reconnecting()},
                      {"split_decoders", split_json(sources.reader(i), s.wall_s)},
                      {"frames_written", p.sinks[i]->frames_written()},
                      {"startup", input_startup_json(info, sources.reader(i).pool())}});
  }
  return inputs;
}

}  // namespace

nlohmann::json run_report(const PipelineParts& p, const Summary& s, const MemorySample& memory_now,
                          const ReportStamp& stamp) {
  std::int64_t decode_errors = 0;
  for (int i = 0; i < p.sources->count(); ++i) decode_errors += p.sources->reader(i).decode_errors();
  nlohmann::json report = make_report(p.config, p.inputs.front(), p.executor->device_name(), mode_as_run(p), s,
                                      decode_errors);
  report["vidpipe_version"] = stamp.program_version;
  const bool interrupted = p.stop != nullptr && p.stop->load();
  report["interrupted"] = interrupted;
  // The end of the run (gather) restamps a failed run once its error is known.
  stamp_outcome(report, !stamp.ended ? Outcome::running : interrupted ? Outcome::interrupted : Outcome::completed);
  report["recent_fps"] = p.metrics->recent_fps(p.now());
  if (p.config.copy.mode == CopyMode::sync) {
    const Prediction prediction = predict_async(s, std::max(2, p.config.copy.streams));
    report["prediction"] = {{"async_fps", prediction.fps}, {"bound", prediction.bound},
                            {"streams", prediction.streams}};
  }
  report["inputs"] = inputs_json(p, s);
  report["preloaded"] = p.sources->reader(0).info().preloaded;
  report["memory"] = memory_json(*p.memory_log, memory_now);
  report["startup"] = startup_json(p.startup, s.first);
  report["shutdown"] = shutdown_json({});  // the end of the run fills it in (run_pipeline)
  return report;
}

nlohmann::json live_report(const PipelineParts& p, const ReportStamp& stamp) {
  Summary s = p.metrics->summarise(p.now(), p.sources->count());
  s.frames_dropped = p.sources->dropped_total();
  s.frames_dropped_measured = p.dropped_in_window();
  return run_report(p, s, sample_memory(s.frames, p.on_gpu), stamp);
}

}  // namespace vidpipe
