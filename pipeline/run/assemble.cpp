// Builds a run's parts from a Config: each component takes its own config section whole
// (no copying key by key), plus what only the run knows (layouts, pool sizes, clocks).
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include "base/errors.hpp"
#include "device/detector_setup.hpp"
#include "base/fault_injection.hpp"
#include "memory/cuda_raii.hpp"
#include "run/executor_inputs.hpp"
#include "run/parts.hpp"

namespace vidpipe {
namespace {

// Each of `parts`' share of `whole`, rounded up.
int share_of(int whole, int parts) { return (whole + std::max(1, parts) - 1) / std::max(1, parts); }

bool resolve_gpu(const Config& c) {
  if (c.device == DeviceChoice::cpu) return false;
  const int gpus = cuda::device_count();
  if (gpus > c.gpu.device) {
    cuda::start_device(c.gpu.device);
    return true;
  }
  if (c.device == DeviceChoice::gpu)
    throw ConfigError(config_error(c, "device", gpus == 0 ? "no CUDA device found" :
                                   "gpu.device " + std::to_string(c.gpu.device) + " does not exist"));
  // A warning, not news: -q must not hide that every "GPU" figure of this run is the CPU's.
  // Once a process: bench assembles a pipeline per rung.
  static std::once_flag warned;
  std::call_once(warned, [] { spdlog::warn("no CUDA device found: running the GPU stage on the CPU (device: cpu)"); });
  return false;
}

// What the CPU path cannot do, said once and taken out of the config it runs.
Config as_run(const Config& config, bool on_gpu) {
  Config c = config;
  if (!on_gpu && c.copy.memory == HostMemory::pinned) {
    spdlog::info("copy.memory: pinned needs a CUDA device; using pageable buffers on the CPU path");
    c.copy.memory = HostMemory::pageable;
  }
  if (!on_gpu && c.reader.decoder == Decoder::nvdec) {
    spdlog::warn("reader.decoder: nvdec needs a CUDA device; decoding on the CPU");
    c.reader.decoder = Decoder::cpu;
  }
  if (!on_gpu && c.reader.decoders.mixed()) {
    c.reader.decoders = c.reader.decoders.on_cpu_only();
    spdlog::warn("reader.decoders: nvdec needs a CUDA device; {} CPU decoder(s) instead", c.reader.decoders.count);
  }
  return c;
}

// Each input's queue: two batches' worth over all inputs, shared out. (Each input once had
// room for the whole shared queue, and a pool to match: 16 inputs of batch 16 pinned some
// 30 GB before the first frame moved, and the pinning held every other CUDA call.)
std::size_t queue_frames(const Config& c, int batch, int inputs) {
  if (c.input.queue_frames > 0) return static_cast<std::size_t>(c.input.queue_frames);
  return static_cast<std::size_t>(std::max(2, share_of(2 * batch, inputs)));
}

// A batch's timeout: copy.batch_timeout_ms, or a quarter of the fastest input's frame period.
double batch_timeout_s(const Config& c, const std::vector<VideoInfo>& inputs) {
  if (c.copy.batch_timeout_ms > 0) return c.copy.batch_timeout_ms / 1e3;
  double fastest_fps = 0;
  for (const VideoInfo& info : inputs) fastest_fps = std::max(fastest_fps, info.fps);
  return fastest_fps > 0 ? std::min(0.010, 0.25 / fastest_fps) : 0.010;
}

void open_sources(PipelineParts& p, int slots) {
  const Config& c = p.config;
  const std::vector<std::string> uris = input_uris(c);
  const int inputs = static_cast<int>(uris.size());
  const std::size_t queue = queue_frames(c, p.batch_size(), inputs);
  const InjectedFault injected = injected_fault_from_env();
  std::vector<ReaderOptions> options;
  std::vector<bool> live;
  for (std::size_t i = 0; i < uris.size(); ++i) {
    const std::string& uri = uris[i];
    ReaderOptions ro{uri, c.input, c.reader, c.copy.memory};
    ro.start_fraction = stagger_fraction(c.input, i, uris.size());
    ro.reader.threads = decoder_threads_each(c.reader, inputs);
    // Each input's pool covers what the pipeline holds of it: its queue, its share of the
    // slots' batches, the sink's. More comes only when others leave it their places, and
    // then the reader waits for a buffer: back-pressure, no more pinned memory.
    ro.in_flight = slots * share_of(p.batch_size(), inputs) + static_cast<int>(queue) + 2;
    ro.live = is_live_uri(uri);
    ro.cuda_device = c.gpu.device;
    ro.defer_pool_filling = true;  // after the executor's set-up (start_pool_filling)
    ro.cancel = p.stop;
    ro.injected = injected;
    options.push_back(ro);
    live.push_back(ro.live || c.input.realtime);
  }
  std::vector<std::unique_ptr<VideoReader>> readers = open_readers(options);
  for (auto& reader : readers) {
    reader->set_clock_origin(p.origin);
    p.inputs.push_back(reader->info());
  }
  SourceOptions so;
  // The sync driver decodes inline on files, as the naive program would; live inputs
  // always get a reader thread, or frames would pile up unseen in the socket.
  so.threaded = c.copy.mode == CopyMode::async || std::find(live.begin(), live.end(), true) != live.end();
  so.queue_frames = queue;
  so.batch_timeout_s = batch_timeout_s(c, p.inputs);
  so.drop = c.input.drop;
  so.max_frames = c.input.max_frames;
  so.decoder_nice = c.reader.nice;
  so.clock_origin = p.origin;
  so.observer = [&metrics = *p.metrics](ReaderState state, double begin, double end) {
    metrics.add_span(state == ReaderState::decoding ? StageSpan::decoding : StageSpan::decode_blocked, begin, end);
  };
  p.sources = std::make_unique<FrameSources>(std::move(readers), std::move(live), so);
}

// Each input's picture as the detector sees it: turned upright.
std::vector<std::pair<int, int>> upright_sizes(const std::vector<VideoInfo>& inputs) {
  std::vector<std::pair<int, int>> sizes;
  for (const VideoInfo& v : inputs)
    sizes.push_back(v.quarter_turns % 2 ? std::pair{v.height, v.width} : std::pair{v.width, v.height});
  return sizes;
}

std::vector<YuvLayout> layouts_of(const FrameSources& sources) {
  std::vector<YuvLayout> layouts;
  for (int i = 0; i < sources.count(); ++i) layouts.push_back(sources.reader(i).layout());
  return layouts;
}

void make_executor(PipelineParts& p) {
  const Config& c = p.config;
  ExecutorOptions eo{c.copy, c.gpu, c.overlay};
  set_input_layouts(eo, layouts_of(*p.sources), p.inputs, c);
  attach_detector(eo, c.gpu);
  eo.clock_origin = p.origin;
  eo.fault_trap_at_frame = injected_fault_from_env().gpu_trap_at_frame;
  p.executor = p.on_gpu ? make_gpu_executor(eo) : make_cpu_executor(eo);
}

void make_sinks(PipelineParts& p, int slots) {
  const int n = p.sources->count();
  for (int i = 0; i < n; ++i) {
    const YuvLayout layout = written_layout(p.sources->reader(i).layout(), p.inputs[i], p.config.sink);
    // Output buffers for this input's share of the slots' batches and of the sink's queue
    // (slots x batch frames). Pinned in the background, as the readers' pools are: the first
    // result needs only one.
    const int share = slots * share_of(p.batch_size(), n) + share_of(slots * p.batch_size(), n) + 2;
    p.out_pools.push_back(std::make_unique<FramePool>(static_cast<std::size_t>(share),
                                                      layout.frame_bytes, p.config.copy.memory,
                                                      PoolFilling{true, p.config.gpu.device}));
    p.out_pools.back()->start_filling();
    SinkOptions so{p.config.sink, p.inputs[i].fps, layout, p.inputs[i].colour, upright_sample_aspect(p.inputs[i])};
    so.config.path = sink_path_for(p.config.sink.path, i, n);
    so.title = n == 1 ? "vidpipe: " + p.inputs[i].uri : fmt::format("vidpipe [{}]: {}", i, p.inputs[i].uri);
    so.controls = &p.controls;
    // The audio is read by a second demuxer of the same file: a pipe cannot be read twice.
    // An input started part way in (input.stagger) would have its audio from the file's start.
    std::error_code not_a_file;
    const bool part_way = p.inputs[i].start_s > 0;
    if (!is_live_uri(p.inputs[i].uri) && p.inputs[i].preloaded == 0 && !part_way &&
        std::filesystem::is_regular_file(p.inputs[i].uri, not_a_file))
      so.audio_from = p.inputs[i].uri;
    else if (part_way && p.config.sink.audio == SinkAudio::copy && p.config.sink.kind != SinkKind::null)
      spdlog::info("input {} ('{}') starts part way in (input.stagger): its audio, if any, is not copied", i,
                   p.inputs[i].uri);
    else if (std::filesystem::is_fifo(p.inputs[i].uri, not_a_file) && p.config.sink.audio == SinkAudio::copy)
      spdlog::info("'{}' is a pipe: its audio, if any, is not copied (it cannot be read twice)", p.inputs[i].uri);
    p.sinks.push_back(make_sink(so));
  }
  p.sink_finished.assign(p.sinks.size(), false);
}

// The pinned pools fill from here on, beside the sinks' opening and the first decoding:
// begun earlier, their pinning held up the executor's CUDA calls (frame_pool.hpp).
void start_pool_filling(PipelineParts& p) {
  for (int i = 0; i < p.sources->count(); ++i) p.sources->reader(i).start_pool_filling();
}

// The decoders of the inputs split over CPU and NVDEC, by kind: how many, their rate
// together, and their mean busy share of `wall_s`.
std::string mixed_decoder_rates(const FrameSources& sources, double wall_s) {
  struct Kind {
    int decoders = 0;
    double fps = 0, busy_s = 0;
  };
  std::map<Decoder, Kind> kinds;
  for (int i = 0; i < sources.count(); ++i) {
    const VideoReader& reader = sources.reader(i);
    if (reader.info().decoder != "cpu+nvdec") continue;
    const std::vector<SegmentDealer::DecoderFigures> figures = reader.split_figures();
    for (std::size_t k = 0; k < figures.size() && k < reader.split_kinds().size(); ++k) {
      Kind& kind = kinds[reader.split_kinds()[k]];
      ++kind.decoders;
      kind.fps += figures[k].fps();
      kind.busy_s += figures[k].busy_s;
    }
  }
  std::string text;
  for (const auto& [decoder, kind] : kinds) {
    const bool cpu = decoder == Decoder::cpu;
    text += fmt::format("{}{} {}{} at {:.1f} fps, busy {:.0f}%", text.empty() ? "" : " and ", kind.decoders,
                        cpu ? "CPU decoder" : "NVDEC session", kind.decoders == 1 ? "" : "s", kind.fps,
                        wall_s > 0 ? 100 * std::min(1.0, kind.busy_s / kind.decoders / wall_s) : 0.0);
  }
  return text;
}

RunShape run_shape(const PipelineParts& p) {
  RunShape shape;
  shape.sync = p.config.copy.mode == CopyMode::sync;
  shape.on_gpu = p.on_gpu;
  shape.decoder_threads = 0;
  for (const VideoInfo& info : p.inputs) shape.decoder_threads += info.decoder_threads;
  shape.nvdec = std::all_of(p.inputs.begin(), p.inputs.end(), [](const VideoInfo& info) {
    return info.decoder == "nvdec";
  });
  shape.mixed_decoders = [&p] { return mixed_decoder_rates(*p.sources, p.now()); };
  shape.streams = p.config.copy.streams;
  shape.pinned = p.config.copy.memory == HostMemory::pinned;
  if (!p.sinks.empty()) shape.sink = p.sinks.front()->describe();
  const GpuConfig& gpu = p.config.gpu;
  if (is_onnx_model(gpu.model)) shape.input_size_keys = gpu.onnx.width > 0 ? "gpu.onnx.width/height" : "";
  return shape;
}

// Frames the run will deliver, for the progress line; 0 when unknown.
std::int64_t expected_frames(const Config& c, const std::vector<VideoInfo>& inputs) {
  std::int64_t expected = 0;
  for (const VideoInfo& info : inputs) {
    // No frame count in the container (MKV, TS): its duration times its rate.
    const std::int64_t counted = info.frame_count > 0 ? info.frame_count : std::llround(info.duration_s * info.fps);
    const std::int64_t whole = info.preloaded > 0 ? info.preloaded : counted;
    const std::int64_t n = c.input.max_frames > 0 ? c.input.max_frames : c.input.loop ? 0 : whole;
    if (n == 0 || is_live_uri(info.uri)) return 0;
    expected += n;
  }
  return expected;
}

}  // namespace

std::unique_ptr<PipelineParts> assemble(const Config& config, const std::atomic<bool>* stop) {
  auto p = std::make_unique<PipelineParts>();
  p->origin = steady_seconds();
  p->startup.process_s = process_age_seconds();
  p->stop = stop;
  // Each step's time into its own start-up figure.
  auto timed = [&p, last = p->origin](double StartupTimes::*figure, auto&& step) mutable {
    step();
    const double now = steady_seconds();
    p->startup.*figure = now - last;
    last = now;
  };
  timed(&StartupTimes::cuda_s, [&] { p->on_gpu = resolve_gpu(config); });
  p->config = as_run(config, p->on_gpu);
  const Config& c = p->config;
  const int slots = p->on_gpu && c.copy.mode == CopyMode::async ? 2 * c.copy.streams : 1;
  p->metrics = std::make_unique<RunMetrics>(c.metrics.warmup_frames, c.metrics.keep_frames);
  timed(&StartupTimes::inputs_s, [&] { open_sources(*p, slots); });
  timed(&StartupTimes::executor_s, [&] { make_executor(*p); });
  start_pool_filling(*p);
  p->controls.sync = c.copy.mode == CopyMode::sync;
  timed(&StartupTimes::sinks_s, [&] { make_sinks(*p, slots); });
  const int n = p->sources->count();
  p->metrics->set_shape(run_shape(*p));
  p->expected_frames = expected_frames(c, p->inputs);
  p->memory_log = std::make_unique<MemoryLog>(c.metrics.warmup_frames, p->on_gpu);
  if (!c.metrics.detections.empty())
    p->detections = std::make_unique<DetectionLog>(c.metrics.detections, upright_sizes(p->inputs),
                                                   detections_key(c.gpu));
  p->live_lag = std::make_unique<LiveLagClock>(n);
  p->terminal = isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1;
  return p;
}

}  // namespace vidpipe
