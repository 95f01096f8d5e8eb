#include "run/pipeline.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

#include "base/blocking_queue.hpp"
#include "memory/cuda_raii.hpp"
#include "base/errors.hpp"
#include "device/executor.hpp"
#include "metrics/memory_usage.hpp"
#include "device/face_model.hpp"
#include "device/fault_injection.hpp"
#include "source/frame_sources.hpp"
#include "source/live_lag.hpp"
#include "base/nvtx_range.hpp"
#include "metrics/progress.hpp"
#include "metrics/report.hpp"
#include "sink/sink.hpp"

namespace vidpipe {
namespace {

constexpr auto buffer_timeout = std::chrono::seconds(60);

struct Parts {
  const Config& config;
  FrameSources& sources;
  Executor& executor;
  std::vector<std::unique_ptr<Sink>>& sinks;         // one per input
  std::vector<std::unique_ptr<FramePool>>& out_pools; // one per input: layouts differ
  RunMetrics& metrics;
  LiveControls& controls;
  const std::atomic<bool>* stop;
  double origin;
  bool terminal;                // stderr is a terminal: redraw one progress line
  std::int64_t expected_frames; // 0: unknown
  MemoryLog& memory;            // sampled by the sink thread
  LiveLagClock& live_lag;       // sink thread only

  double now() const { return steady_seconds() - origin; }
  bool stopping() const { return (stop && stop->load()) || controls.quit; }
};

// The display's s key: applied on the sink thread, taken up by the next submit.
void apply_mode_toggles(const Parts& p, int& seen) {
  const int toggles = p.controls.mode_toggles;
  if (toggles == seen) return;
  seen = toggles;
  const bool sync = !p.controls.sync;
  p.controls.sync = sync;
  p.executor.set_mode(sync ? CopyMode::sync : CopyMode::async);
  spdlog::info("display: copies now {}", sync ? "sync (blocking cudaMemcpy)" : "async (queued on streams)");
}

// One frame's trip through the sink, with its record completed and filed.
void deliver(const Parts& p, AvBufferPtr buffer, FrameRecord record, std::int64_t& delivered) {
  NvtxRange range("sink");
  const double t0 = p.now();
  p.sinks[record.source]->write({buffer.get(), record.index});
  buffer.reset();
  record.sink_at = p.now();
  record.sink_ms = (record.sink_at - t0) * 1e3;
  record.live_lag_ms = p.live_lag.lag_ms(record.source, record.sink_at, record.stream_s);
  p.metrics.add_frame(record);
  p.memory.on_frame(++delivered);
  const std::string line = p.metrics.live_line(record.sink_at);  // also feeds the HUD
  if (!p.config.metrics.live || line.empty()) return;
  const std::int64_t dropped = p.sources.dropped_total();
  const std::string drops = dropped > 0 ? fmt::format(" | dropped {}", dropped) : "";
  if (p.terminal)
    fmt::print(stderr, "\r{} | {}{}\x1b[K", progress_bar(delivered, p.expected_frames, p.metrics.hud_fps()), line,
               drops);
  else
    spdlog::info("{}{}", line, drops);
}

FrameRecord record_for(const DecodedFrame& f, const BatchTimings& t, int batch) {
  FrameRecord r;
  r.index = f.index;
  r.source = f.source;
  r.decoded_at = f.decoded_at;
  r.decode_ms = f.decode_ms;
  r.stream_s = f.stream_s;
  // A batch shares one upload, launch and download: each frame carries its share.
  r.h2d_ms = t.h2d_ms / batch;
  r.compute_ms = t.compute_ms / batch;
  r.d2h_ms = t.d2h_ms / batch;
  r.preprocess_ms = t.preprocess_ms / batch;
  r.infer_ms = t.infer_ms / batch;
  r.h2d_bytes = t.h2d_bytes / batch;
  r.d2h_bytes = t.d2h_bytes / batch;
  r.gpu_begin = t.gpu_begin;
  r.gpu_end = t.gpu_end;
  r.stream = t.stream;
  r.batch = batch;
  return r;
}

AvBufferPtr acquire_output(const Parts& p, int source) {
  ScopedWait wait(p.metrics, WaitKind::output_buffer, p.origin);
  AvBufferPtr out(p.out_pools[source]->acquire(buffer_timeout));
  if (!out) throw std::runtime_error("output buffer pool stalled (sink not consuming)");
  return out;
}

// The naive program: decode, blocking copy up, kernels, blocking copy down, sink.
void run_sync(const Parts& p) {
  std::int64_t delivered = 0;
  int toggles_seen = 0;
  while (!p.stopping()) {
    std::optional<DecodedFrame> frame = p.sources.pop();
    if (!frame) break;
    apply_mode_toggles(p, toggles_seen);
    AvBufferPtr out = acquire_output(p, frame->source);
    std::uint8_t* out_ptr = out->data;
    p.executor.submit(0, {&*frame, 1}, {&out_ptr, 1}, p.metrics);
    const BatchTimings t = p.executor.wait_done(0);
    FrameRecord record = record_for(*frame, t, 1);
    record.faces = p.executor.detections(0).front().count;
    frame.reset();  // the pool buffer goes back to the decoder
    deliver(p, std::move(out), record, delivered);
  }
}

struct InFlight {
  int slot = 0;
  std::vector<DecodedFrame> frames;
  std::vector<AvBufferPtr> outputs;
};

struct Delivery {
  AvBufferPtr buffer;
  FrameRecord record;
};

// First exception from any thread wins; the others are consequences of the shutdown.
class ErrorSlot {
 public:
  void capture() {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
  }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
};

void run_async(const Parts& p) {
  const int slots = p.executor.slots();
  const int batch = std::max(1, p.config.copy.batch_size);
  BlockingQueue<InFlight> in_flight(slots);
  BlockingQueue<Delivery> to_sink(static_cast<std::size_t>(slots) * batch);
  ErrorSlot error;
  // submit may reuse slot k only after the completion thread has finished with it.
  std::mutex done_mutex;
  std::condition_variable done_cv;
  std::int64_t completed = 0;
  std::atomic<bool> aborted{false};

  auto close_all = [&] {
    aborted = true;
    in_flight.close();
    to_sink.close();
    p.sources.request_stop();
    done_cv.notify_all();
  };

  std::thread completion_thread([&] {
    try {
      while (std::optional<InFlight> job = in_flight.pop()) {
        const BatchTimings t = p.executor.wait_done(job->slot);
        const std::vector<DetectionList> found = p.executor.detections(job->slot);
        const int n = static_cast<int>(job->frames.size());
        for (int i = 0; i < n; ++i) {
          FrameRecord r = record_for(job->frames[i], t, n);
          r.faces = found[i].count;
          if (!to_sink.push({std::move(job->outputs[i]), r})) break;
        }
        job->frames.clear();  // input buffers back to the pool
        {
          std::lock_guard lock(done_mutex);
          ++completed;
        }
        done_cv.notify_all();
      }
    } catch (...) {
      error.capture();
      close_all();
    }
    to_sink.close();
  });

  std::thread sink_thread([&] {
    try {
      std::int64_t delivered = 0;
      int toggles_seen = 0;
      while (std::optional<Delivery> d = to_sink.pop()) {
        deliver(p, std::move(d->buffer), d->record, delivered);
        apply_mode_toggles(p, toggles_seen);
      }
    } catch (...) {
      error.capture();
      close_all();
    }
  });

  try {
    std::int64_t submitted = 0;
    for (bool more = true; more;) {
      InFlight job;
      while (static_cast<int>(job.frames.size()) < batch) {
        std::optional<DecodedFrame> f = p.sources.pop();
        if (!f) {
          more = false;
          break;
        }
        job.frames.push_back(std::move(*f));
      }
      if (job.frames.empty()) break;
      // Frames of one input side by side: their preprocessing shares a launch.
      std::stable_sort(job.frames.begin(), job.frames.end(),
                       [](const DecodedFrame& a, const DecodedFrame& b) { return a.source < b.source; });
      job.slot = static_cast<int>(submitted % slots);
      p.executor.wait_idle(job.slot, p.metrics);
      {
        std::unique_lock lock(done_mutex);
        done_cv.wait(lock, [&] { return completed > submitted - slots || aborted; });
      }
      if (aborted) break;
      std::vector<std::uint8_t*> out_ptrs;
      for (const DecodedFrame& f : job.frames) {
        job.outputs.push_back(acquire_output(p, f.source));
        out_ptrs.push_back(job.outputs.back()->data);
      }
      p.executor.submit(job.slot, job.frames, out_ptrs, p.metrics);
      if (!in_flight.push(std::move(job))) break;
      ++submitted;
    }
  } catch (...) {
    error.capture();
    close_all();
  }
  in_flight.close();
  completion_thread.join();
  sink_thread.join();
  error.rethrow();
}

std::string resolve_device(const Config& c) {
  const int gpus = cuda::device_count();
  if (c.device == "cpu") return "cpu";
  if (gpus > c.gpu.device) return "gpu";
  if (c.device == "gpu")
    throw ConfigError(config_error(c, "device", gpus == 0 ? "no CUDA device found" :
                                   "gpu.device " + std::to_string(c.gpu.device) + " does not exist"));
  spdlog::info("no CUDA device found: running the GPU stage on the CPU (device: cpu)");
  return "cpu";
}

}  // namespace

std::string mode_label(const Config& c) {
  std::string label = c.copy.mode + " " + c.copy.memory;
  if (c.copy.mode == "async") label += " x" + std::to_string(c.copy.streams);
  if (c.copy.mode == "async" && c.copy.batch_size > 1) label += " b" + std::to_string(c.copy.batch_size);
  if (c.reader.decoder == "nvdec") label += " nvdec";
  if (c.inputs.size() > 1) label += " " + std::to_string(c.inputs.size()) + " inputs";
  return label;
}

namespace {

// With several inputs each gets its own output: files get "-<input>" before the
// extension, stream URLs the next ports.
std::string sink_path_for(const std::string& path, int input, int inputs) {
  if (inputs == 1 || path.empty()) return path;
  if (path.find("://") != std::string::npos) {
    const auto colon = path.rfind(':');
    const auto end = path.find_first_of("/?", colon);
    const int port = std::stoi(path.substr(colon + 1, end - colon - 1));
    return path.substr(0, colon + 1) + std::to_string(port + input) + (end == std::string::npos ? "" : path.substr(end));
  }
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "-" + std::to_string(input) + p.extension().string())).string();
}

ReaderOptions reader_options(const Config& c, const std::string& uri, HostMemory memory, int in_flight,
                             const std::string& device) {
  ReaderOptions ro;
  ro.uri = uri;
  ro.threads = c.reader.threads;
  ro.loop = c.input.loop;
  ro.realtime = c.input.realtime;
  ro.memory = memory;
  ro.pool_frames = c.reader.pool_frames;
  ro.in_flight = in_flight;
  ro.open.camera = {c.input.camera.format, c.input.camera.width, c.input.camera.height, c.input.camera.fps};
  ro.open.rtsp_transport = c.input.rtsp_transport;
  ro.live = is_live_uri(uri);
  ro.timeout_s = c.input.timeout_ms / 1e3;
  ro.reconnect_attempts = c.input.reconnect.attempts;
  ro.reconnect_backoff_ms = c.input.reconnect.backoff_ms;
  ro.decoder = device == "gpu" ? c.reader.decoder : "cpu";
  ro.cuda_device = c.gpu.device;
  return ro;
}

ExecutorOptions executor_options(const Config& c, std::vector<YuvLayout> layouts, int batch, double origin) {
  ExecutorOptions eo;
  eo.mode = c.copy.mode == "async" ? CopyMode::async : CopyMode::sync;
  eo.streams = c.copy.streams;
  eo.batch_size = batch;
  eo.chunk_bytes = static_cast<std::size_t>(c.copy.chunk_bytes);
  eo.device = c.gpu.device;
  eo.layouts = std::move(layouts);
  eo.net_width = c.gpu.preprocess.width;
  eo.net_height = c.gpu.preprocess.height;
  eo.align = c.gpu.preprocess.align == "centre" ? LetterboxAlign::centre : LetterboxAlign::top_left;
  for (int i = 0; i < 3; ++i) {
    eo.norm.mean[i] = static_cast<float>(c.gpu.preprocess.mean[i]);
    eo.norm.scale[i] = static_cast<float>(c.gpu.preprocess.scale);
  }
  if (c.gpu.inference) eo.model = std::make_shared<const TinyFaceWeights>(load_tiny_face_model(c.gpu.model));
  eo.score_threshold = static_cast<float>(c.gpu.score_threshold);
  eo.iou_threshold = static_cast<float>(c.gpu.iou_threshold);
  eo.draw_boxes = c.overlay.boxes;
  eo.draw_hud = c.overlay.hud;
  eo.clock_origin = origin;
  eo.fault_trap_at_frame = injected_fault_from_env().gpu_trap_at_frame;
  return eo;
}

// Polls the stop flags so that a reader blocked on a silent live source or a full
// pool still hears Ctrl-C or the display's q.
class StopWatcher {
 public:
  StopWatcher(const Parts& p) : thread_([this, &p] {
    while (!done_) {
      if (p.stopping()) {
        p.sources.request_stop();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }) {}
  ~StopWatcher() {
    done_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

nlohmann::json inputs_json(const FrameSources& sources, const Summary& s) {
  nlohmann::json inputs = nlohmann::json::array();
  for (int i = 0; i < sources.count(); ++i) {
    const VideoReader& r = sources.reader(i);
    inputs.push_back({{"uri", r.info().uri}, {"codec", r.info().codec}, {"decoder", r.info().decoder},
                      {"decoder_threads", r.info().decoder_threads},
                      {"width", r.info().width}, {"height", r.info().height}, {"live", sources.live(i)},
                      {"frames_decoded", sources.decoded(i)}, {"frames_dropped", sources.dropped(i)},
                      {"frames_measured", s.input_frames_measured[i]}, {"fps", s.input_fps[i]},
                      {"decode_errors", r.decode_errors()}, {"reconnects", r.reconnects()}});
  }
  return inputs;
}

}  // namespace

RunResult run_pipeline(const Config& config, const std::atomic<bool>* stop) {
  const double origin = steady_seconds();
  const std::string device = resolve_device(config);
  Config c = config;
  if (device == "cpu" && c.copy.memory == "pinned") {
    spdlog::info("copy.memory: pinned needs a CUDA device; using pageable buffers on the CPU path");
    c.copy.memory = "pageable";
  }
  if (device == "cpu" && c.reader.decoder == "nvdec")
    spdlog::warn("reader.decoder: nvdec needs a CUDA device; decoding on the CPU");
  const bool async = c.copy.mode == "async";
  const HostMemory memory = c.copy.memory == "pinned" ? HostMemory::pinned : HostMemory::pageable;
  const int batch = async ? c.copy.batch_size : 1;
  const int slots = device == "gpu" && async ? 2 * c.copy.streams : 1;
  const std::vector<std::string> uris = input_uris(c);
  const int n_inputs = static_cast<int>(uris.size());
  const std::size_t queue_frames =
      c.input.queue_frames > 0 ? c.input.queue_frames : static_cast<std::size_t>(2 * batch * n_inputs);

  std::vector<std::unique_ptr<VideoReader>> readers;
  std::vector<bool> live;
  for (const std::string& uri : uris) {
    // Each input's pool covers what the pipeline can hold of it: slots, queue, sink.
    const int in_flight = slots * batch + static_cast<int>(queue_frames) + 2;
    readers.push_back(std::make_unique<VideoReader>(reader_options(c, uri, memory, in_flight, device)));
    readers.back()->set_clock_origin(origin);
    live.push_back(is_live_uri(uri) || c.input.realtime);
  }
  std::vector<YuvLayout> layouts;
  for (const auto& r : readers) layouts.push_back(r->layout());
  std::vector<VideoInfo> infos;
  for (const auto& r : readers) infos.push_back(r->info());

  SourceOptions so_in;
  // The sync driver decodes inline on files, as the naive program would; live inputs
  // always get a reader thread, or frames would pile up unseen in the socket.
  so_in.threaded = async || std::find(live.begin(), live.end(), true) != live.end();
  so_in.queue_frames = queue_frames;
  so_in.drop = drop_policy_from(c.input.drop);
  so_in.max_frames = c.input.max_frames;
  FrameSources sources(std::move(readers), live, so_in);

  const ExecutorOptions eo = executor_options(c, layouts, batch, origin);
  std::unique_ptr<Executor> executor = device == "gpu" ? make_gpu_executor(eo) : make_cpu_executor(eo);

  LiveControls controls;
  controls.sync = !async;
  std::vector<std::unique_ptr<FramePool>> out_pools;
  std::vector<std::unique_ptr<Sink>> sinks;
  for (int i = 0; i < n_inputs; ++i) {
    // Enough output buffers for every slot's batch plus the sink's queue.
    out_pools.push_back(std::make_unique<FramePool>(static_cast<std::size_t>(2 * slots * batch + 2),
                                                    layouts[i].frame_bytes, memory));
    SinkOptions so;
    so.kind = c.sink.kind;
    so.path = sink_path_for(c.sink.path, i, n_inputs);
    so.codec = c.sink.codec;
    so.preset = c.sink.preset;
    so.crf = c.sink.crf;
    so.threads = c.sink.threads;
    so.fps = infos[i].fps;
    so.layout = layouts[i];
    so.colour = infos[i].colour;
    so.title = n_inputs == 1 ? "vidpipe: " + uris[i] : fmt::format("vidpipe [{}]: {}", i, uris[i]);
    so.controls = &controls;
    sinks.push_back(make_sink(so));
  }

  RunMetrics metrics(c.metrics.warmup_frames, c.metrics.keep_frames);
  std::int64_t expected = 0;
  for (const VideoInfo& info : infos) {
    const std::int64_t n = c.input.max_frames > 0 ? c.input.max_frames : c.input.loop ? 0 : info.frame_count;
    if (n == 0 || is_live_uri(info.uri)) {
      expected = 0;
      break;
    }
    expected += n;
  }
  MemoryLog memory_log(c.metrics.warmup_frames, device == "gpu");
  LiveLagClock live_lag(n_inputs);
  Parts parts{c,      sources, *executor, sinks, out_pools, metrics, controls, stop, origin,
              isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1, expected, memory_log, live_lag};
  spdlog::info("running {} on {} -> {}{}", mode_label(c), executor->device_name(), sinks.front()->describe(),
               n_inputs > 1 ? fmt::format(" (and {} more, one per input)", n_inputs - 1) : "");
  std::exception_ptr error;
  try {
    StopWatcher watcher(parts);
    sources.start();
    if (async)
      run_async(parts);
    else
      run_sync(parts);
    sources.rethrow();
  } catch (...) {
    // Keep what reached the sink and the figures so far; the caller reports the error.
    error = std::current_exception();
    sources.request_stop();
  }
  for (auto& sink : sinks) {
    try {
      sink->finish();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (parts.terminal && c.metrics.live) fmt::print(stderr, "\n");

  RunResult result;
  result.input = infos.front();
  result.device = executor->device_name();
  result.mode = mode_label(c);
  result.summary = metrics.summarise(steady_seconds() - origin, n_inputs);
  result.summary.frames_dropped = sources.dropped_total();
  if (!c.metrics.trace.empty()) metrics.write_trace(c.metrics.trace, result.device);
  for (int i = 0; i < n_inputs; ++i) result.decode_errors += sources.reader(i).decode_errors();
  result.memory_after_warmup = memory_log.after_warmup();
  result.memory_at_end = sample_memory(result.summary.frames, device == "gpu");
  result.report = make_report(c, result.input, result.device, result.mode, result.summary, result.decode_errors);
  result.report["inputs"] = inputs_json(sources, result.summary);
  result.error = error;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      result.report["error"] = e.what();
    }
  }
  result.report["memory"] = memory_json(memory_log, result.memory_at_end);
  return result;
}

}  // namespace vidpipe
