#include "pipeline.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <exception>
#include <mutex>
#include <thread>

#include "blocking_queue.hpp"
#include "cuda_raii.hpp"
#include "errors.hpp"
#include "executor.hpp"
#include "memory_usage.hpp"
#include "face_model.hpp"
#include "nvtx_range.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "sink.hpp"

namespace vidpipe {
namespace {

constexpr auto buffer_timeout = std::chrono::seconds(60);

struct Parts {
  const Config& config;
  VideoReader& reader;
  Executor& executor;
  Sink& sink;
  FramePool& out_pool;
  RunMetrics& metrics;
  const std::atomic<bool>* stop;
  double origin;
  bool terminal;                // stderr is a terminal: redraw one progress line
  std::int64_t expected_frames; // 0: unknown
  bool on_gpu;
  MemorySample* after_warmup;   // taken by the sink thread when the warm-up ends

  double now() const { return steady_seconds() - origin; }
  bool stopping() const { return stop && stop->load(); }
  bool frame_limit_reached(std::int64_t read) const {
    return config.input.max_frames > 0 && read >= config.input.max_frames;
  }
};

MemorySample sample_memory(bool gpu) { return {resident_mb(), gpu ? device_used_mb() : 0.0}; }

// One frame's trip through the sink, with its record completed and filed.
void deliver(const Parts& p, AvBufferPtr buffer, FrameRecord record) {
  NvtxRange range("sink");
  const double t0 = p.now();
  p.sink.write({buffer.get(), record.index});
  buffer.reset();
  record.sink_at = p.now();
  record.sink_ms = (record.sink_at - t0) * 1e3;
  p.metrics.add_frame(record);
  if (record.index == p.config.metrics.warmup_frames) *p.after_warmup = sample_memory(p.on_gpu);
  const std::string line = p.metrics.live_line(record.sink_at);  // also feeds the HUD
  if (!p.config.metrics.live || line.empty()) return;
  if (p.terminal)
    fmt::print(stderr, "\r{} | {}\x1b[K", progress_bar(record.index + 1, p.expected_frames, p.metrics.hud_fps()), line);
  else
    spdlog::info("{}", line);
}

FrameRecord record_for(const DecodedFrame& f, const BatchTimings& t, int batch) {
  FrameRecord r;
  r.index = f.index;
  r.decoded_at = f.decoded_at;
  r.decode_ms = f.decode_ms;
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

AvBufferPtr acquire_output(const Parts& p) {
  ScopedWait wait(p.metrics, WaitKind::output_buffer, p.origin);
  AvBufferPtr out(p.out_pool.acquire(buffer_timeout));
  if (!out) throw std::runtime_error("output buffer pool stalled (sink not consuming)");
  return out;
}

// The naive program: decode, blocking copy up, kernels, blocking copy down, sink.
void run_sync(const Parts& p) {
  std::int64_t read = 0;
  while (!p.stopping() && !p.frame_limit_reached(read)) {
    std::optional<DecodedFrame> frame = p.reader.next();
    if (!frame) break;
    ++read;
    AvBufferPtr out = acquire_output(p);
    std::uint8_t* out_ptr = out->data;
    p.executor.submit(0, {&*frame, 1}, {&out_ptr, 1}, p.metrics);
    const BatchTimings t = p.executor.wait_done(0);
    FrameRecord record = record_for(*frame, t, 1);
    record.faces = p.executor.detections(0).front().count;
    frame.reset();  // the pool buffer goes back to the decoder
    deliver(p, std::move(out), record);
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
  BlockingQueue<DecodedFrame> decoded(static_cast<std::size_t>(batch) * 2);
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
    decoded.close();
    in_flight.close();
    to_sink.close();
    p.reader.request_stop();
    done_cv.notify_all();
  };

  std::thread reader_thread([&] {
    try {
      std::int64_t read = 0;
      while (!p.stopping() && !p.frame_limit_reached(read)) {
        NvtxRange range("decode");
        std::optional<DecodedFrame> f = p.reader.next();
        if (!f || !decoded.push(std::move(*f))) break;
        ++read;
      }
    } catch (...) {
      error.capture();
      close_all();
    }
    decoded.close();
  });

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
      while (std::optional<Delivery> d = to_sink.pop()) deliver(p, std::move(d->buffer), d->record);
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
        std::optional<DecodedFrame> f = decoded.pop();
        if (!f) {
          more = false;
          break;
        }
        job.frames.push_back(std::move(*f));
      }
      if (job.frames.empty()) break;
      job.slot = static_cast<int>(submitted % slots);
      p.executor.wait_idle(job.slot, p.metrics);
      {
        std::unique_lock lock(done_mutex);
        done_cv.wait(lock, [&] { return completed > submitted - slots || aborted; });
      }
      if (aborted) break;
      std::vector<std::uint8_t*> out_ptrs;
      for (std::size_t i = 0; i < job.frames.size(); ++i) {
        job.outputs.push_back(acquire_output(p));
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
  reader_thread.join();
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
  return label;
}

RunResult run_pipeline(const Config& config, const std::atomic<bool>* stop) {
  const double origin = steady_seconds();
  const std::string device = resolve_device(config);
  Config c = config;
  if (device == "cpu" && c.copy.memory == "pinned") {
    spdlog::info("copy.memory: pinned needs a CUDA device; using pageable buffers on the CPU path");
    c.copy.memory = "pageable";
  }
  if (c.reader.decoder == "nvdec") {
    spdlog::warn("reader.decoder: nvdec is not built into this version; decoding on the CPU");
    c.reader.decoder = "cpu";
  }
  const bool async = c.copy.mode == "async";
  const HostMemory memory = c.copy.memory == "pinned" ? HostMemory::pinned : HostMemory::pageable;
  const int batch = async ? c.copy.batch_size : 1;
  const int slots = device == "gpu" && async ? 2 * c.copy.streams : 1;

  ReaderOptions ro;
  ro.uri = c.input.uri;
  ro.threads = c.reader.threads;
  ro.loop = c.input.loop;
  ro.realtime = c.input.realtime;
  ro.memory = memory;
  ro.pool_frames = c.reader.pool_frames;
  ro.in_flight = slots * batch + 2 * batch + 2;
  VideoReader reader(ro);
  reader.set_clock_origin(origin);

  ExecutorOptions eo;
  eo.mode = async ? CopyMode::async : CopyMode::sync;
  eo.streams = c.copy.streams;
  eo.batch_size = batch;
  eo.chunk_bytes = static_cast<std::size_t>(c.copy.chunk_bytes);
  eo.device = c.gpu.device;
  eo.layout = reader.layout();
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
  std::unique_ptr<Executor> executor = device == "gpu" ? make_gpu_executor(eo) : make_cpu_executor(eo);

  // Enough output buffers for every slot's batch plus the sink's queue.
  FramePool out_pool(static_cast<std::size_t>(2 * slots * batch + 2), reader.layout().frame_bytes, memory);
  SinkOptions so;
  so.kind = c.sink.kind;
  so.path = c.sink.path;
  so.codec = c.sink.codec;
  so.preset = c.sink.preset;
  so.crf = c.sink.crf;
  so.threads = c.sink.threads;
  so.fps = reader.info().fps;
  so.layout = reader.layout();
  so.colour = reader.info().colour;
  std::unique_ptr<Sink> sink = make_sink(so);

  RunMetrics metrics(c.metrics.warmup_frames);
  const std::int64_t expected = c.input.max_frames > 0 ? c.input.max_frames
                                 : c.input.loop       ? 0
                                                      : reader.info().frame_count;
  MemorySample after_warmup = sample_memory(device == "gpu");
  Parts parts{c,      reader, *executor, *sink,           out_pool, metrics, stop, origin,
              isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1, expected, device == "gpu", &after_warmup};
  spdlog::info("running {} on {} -> {}", mode_label(c), executor->device_name(), sink->describe());
  try {
    if (async)
      run_async(parts);
    else
      run_sync(parts);
  } catch (...) {
    // Keep what reached the sink: finalise the file before reporting the error.
    try {
      sink->finish();
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
    }
    throw;
  }
  sink->finish();
  if (parts.terminal && c.metrics.live) fmt::print(stderr, "\n");

  RunResult result;
  result.input = reader.info();
  result.device = executor->device_name();
  result.mode = mode_label(c);
  result.summary = metrics.summarise(steady_seconds() - origin);
  if (!c.metrics.trace.empty()) metrics.write_trace(c.metrics.trace, result.device);
  result.decode_errors = reader.decode_errors();
  result.memory_after_warmup = after_warmup;
  result.memory_at_end = sample_memory(device == "gpu");
  result.report = make_report(c, result.input, result.device, result.mode, result.summary, result.decode_errors);
  result.report["memory"] = {{"rss_mb_after_warmup", after_warmup.rss_mb}, {"rss_mb_at_end", result.memory_at_end.rss_mb},
                             {"device_mb_after_warmup", after_warmup.device_mb},
                             {"device_mb_at_end", result.memory_at_end.device_mb}};
  return result;
}

}  // namespace vidpipe
