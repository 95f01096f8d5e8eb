#include "run/frame_delivery.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "base/nvtx_range.hpp"
#include "metrics/progress.hpp"

namespace vidpipe {
namespace {

// A pool wait this long means nothing downstream consumes: a stall, not backpressure.
constexpr auto buffer_timeout = std::chrono::seconds(60);

void print_live_line(PipelineParts& p, double now, std::int64_t delivered) {
  const std::optional<LiveFigures> figures = p.metrics->live_figures(now);  // also feeds the HUD
  if (!p.config.metrics.live || !figures) return;
  const std::int64_t dropped = p.sources->dropped_total();
  if (!p.terminal) {
    spdlog::info("{}", live_log_line(*figures, dropped));
    return;
  }
  fmt::print(stderr, "\r{}\x1b[K", progress_line({delivered, p.expected_frames, figures, dropped, ""}, terminal_columns()));
  set_progress_row_open(true);
}

}  // namespace

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
  r.sync_copies = t.copies == CopyMode::sync;
  return r;
}

AvBufferPtr acquire_output(PipelineParts& p, int source) {
  HostWaits waits;
  AvBufferPtr out;
  {
    TimedWait wait(waits, WaitKind::output_buffer, p.origin);
    out.reset(p.out_pools[source]->acquire(buffer_timeout));
  }
  p.metrics->add_waits(waits);
  if (!out) {
    p.out_pools[source]->rethrow_filling_error();  // the pool never filled: its CUDA error, not a stall
    throw std::runtime_error("output buffer pool stalled (sink not consuming)");
  }
  return out;
}

void apply_mode_toggles(PipelineParts& p, int& toggles_seen) {
  const int toggles = p.controls.mode_toggles;
  if (toggles == toggles_seen) return;
  toggles_seen = toggles;
  const bool sync = !p.controls.sync;
  p.controls.sync = sync;
  p.executor->set_mode(sync ? CopyMode::sync : CopyMode::async);
  spdlog::info("display: copies now {}", sync ? "sync (blocking cudaMemcpy)" : "async (queued on streams)");
}

void deliver(PipelineParts& p, AvBufferPtr buffer, FrameRecord record, const DetectionList& found) {
  NvtxRange range("sink");
  const double t0 = p.now();
  p.sinks[record.source]->write({buffer.get(), record.index, record.stream_s});
  buffer.reset();
  record.sink_at = p.now();
  record.sink_ms = (record.sink_at - t0) * 1e3;
  p.metrics->add_span(StageSpan::sink_writing, t0, record.sink_at);
  record.live_lag_ms = p.live_lag->lag_ms(record.source, record.sink_at, record.stream_s);
  if (p.detections) p.detections->write(record.source, record.index, record.stream_s, found);
  p.metrics->add_frame(record);
  p.memory_log->on_frame(++p.frames_delivered);
  if (p.frames_delivered == p.config.metrics.warmup_frames) p.dropped_at_warmup = p.sources->dropped_total();
  print_live_line(p, record.sink_at, p.frames_delivered);
}

void finish_output(PipelineParts& p, int source) {
  if (p.sink_finished[source]) return;
  p.sink_finished[source] = true;
  p.sinks[source]->finish();
  if (p.sinks.size() > 1 && !p.stopping())
    spdlog::info("input {} ('{}') ended: {} finalised, {} frames", source, p.sources->reader(source).info().uri,
                 p.sinks[source]->describe(), p.sinks[source]->frames_written());
}

}  // namespace vidpipe
