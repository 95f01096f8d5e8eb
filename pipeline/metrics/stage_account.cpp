#include "metrics/stage_account.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace vidpipe {
namespace {

// Shares above these are "most of the time" and "often".
constexpr double mostly = 0.8, often = 0.2;

std::string pct(double share) { return fmt::format("{:.0f}%", 100 * share); }

// What lifts a sink bound: the encoder's keys first, since at 4K libx264 is most often it.
constexpr const char* sink_lift =
    "sink.codec: h264_nvenc (where the GPU has NVENC), sink.preset: ultrafast, sink.width/sink.height (a smaller "
    "output: scaled on the GPU, fewer bytes down and to encode), sink.threads: 0 (every core); sink.kind: null to "
    "measure without it";

// Sync mode: one thread does every stage in turn, so the stage it spent most time in bounds it.
Bottleneck judge_sync(const StageShares& s, const RunShape& shape) {
  // The thread waits for the kernels on a GPU, runs the twins itself on the CPU: either way
  // the stage's time is the device's busy time less the copies.
  const double compute = std::max(s.compute_wait, std::max(0.0, s.gpu_busy - s.copy_wait));
  const std::array<std::pair<const char*, double>, 4> parts = {
      {{"decode", s.decode.busy}, {"copy", s.copy_wait}, {"compute", compute}, {"sink", s.sink.busy}}};
  const auto top = *std::max_element(parts.begin(), parts.end(), [](auto a, auto b) { return a.second < b.second; });
  Bottleneck b{top.first,
               fmt::format("bound by {}: the one thread spent {} decoding, {} blocked in copies, {} on the {} stage "
                           "and {} in the sink ({:.1f} fps)",
                           top.first, pct(s.decode.busy), pct(s.copy_wait), pct(compute), shape.on_gpu ? "GPU" : "CPU",
                           pct(s.sink.busy), shape.fps),
               "copy.mode: async (the stages then overlap)"};
  if (b.stage == "sink") b.lift = std::string(sink_lift) + "; copy.mode: async (the stages then overlap)";
  if (b.stage == "sink" && !shape.sink.empty()) b.evidence += " (" + shape.sink + ")";
  return b;
}

// The GPU side waited for frames far longer than the decoders waited for room. Some
// blocking remains when one stream takes frames in bursts (the pool runs dry between them),
// so the test is the ratio of the two waits, not the decoders never waiting.
Bottleneck decode_bound(const StageShares& s, const RunShape& shape, const std::string& device) {
  const std::string mixed = shape.mixed_decoders ? shape.mixed_decoders() : "";
  if (!mixed.empty())
    return {"decode",
            fmt::format("bound by decode: {} delivered {:.1f} fps together; the {} side was starved {} of the time",
                        mixed, shape.fps, device, pct(s.submit.starved)),
            "the busiest kind bounds: more NVDEC sessions (reader.decoders: [cpu, nvdec, nvdec, nvdec]) where "
            "the CPU decoder is busy, reader.threads where NVDEC is, or input.preload to measure the GPU side alone"};
  const bool one = shape.decoder_threads == 1;
  return {"decode",
          fmt::format("bound by decode: {} {}{} delivered {:.1f} fps and {} blocked; the {} side was "
                      "starved {} of the time",
                      shape.decoder_threads, shape.nvdec ? "NVDEC session" : "decoder thread", one ? "" : "s",
                      shape.fps,
                      std::string(one ? "was" : "were") +
                          (s.decode.blocked < 0.005 ? " never" : " only " + pct(s.decode.blocked)),
                      device, pct(s.submit.starved)),
          shape.nvdec ? "reader.decoders: N (one MP4/MOV file over N NVDEC sessions), or input.preload to measure "
                        "the GPU side alone"
                      : "reader.threads, reader.decoder: nvdec, reader.decoders: N or [cpu, nvdec, nvdec] (one MP4/MOV "
                        "file over several decoders, of one kind or both), or input.preload to measure the GPU side "
                        "alone"};
}

// The streams were never empty, yet no engine was near full: within a stream a frame's
// upload, kernels and download run one after another, so too few streams leave each engine
// idle while the others work. More streams (or larger batches) overlap them.
Bottleneck streams_bound(const StageShares& s, const RunShape& shape) {
  return {"streams",
          fmt::format("bound by the streams: {} stream{} held work {} of the time, yet no engine was near full "
                      "(H2D {}, kernels {}, D2H {}); a stream's copies and kernels take turns, and the submit "
                      "thread waited on them {}",
                      shape.streams, shape.streams == 1 ? "" : "s", pct(s.gpu_busy), pct(s.upload.busy),
                      pct(s.compute.busy), pct(s.download.busy), pct(s.copy_wait + s.compute_wait)),
          "copy.streams (frames in flight at once: one's copies beside another's kernels), copy.batch_size"};
}

// What lifts a copy bound depends on how far the copies already go: pageable memory stages
// every copy through the driver; pinned copies with an engine near full have the link to
// themselves, and only fewer bytes a frame are left to win.
Bottleneck copy_bound(const StageShares& s, const RunShape& shape) {
  const bool engine_full = std::max(s.upload.busy, s.download.busy) >= engine_near_full;
  std::string evidence = fmt::format("bound by copies: the submit thread was blocked on copies {} of the time "
                                     "({:.1f} GB/s up, {:.1f} GB/s down); the readers were blocked {}",
                                     pct(s.copy_wait), shape.h2d_carried_gbps, shape.d2h_carried_gbps,
                                     pct(s.decode.blocked));
  if (shape.on_gpu)
    evidence += fmt::format("; the copy engines were busy H2D {}, D2H {}", pct(s.upload.busy), pct(s.download.busy));
  const char* lift = !shape.pinned ? "copy.memory: pinned (DMA straight from the frame buffers), copy.streams, "
                                     "copy.batch_size"
                     : engine_full ? "the link is near full: only fewer bytes a frame lift it, sink.width/sink.height "
                                     "(scaled on the GPU before the download)"
                                   : "copy.streams, copy.batch_size";
  return {"copy", evidence, lift};
}

}  // namespace

Bottleneck judge_bottleneck(const StageShares& s, const RunShape& shape) {
  if (shape.sync) return judge_sync(s, shape);
  const std::string device = shape.on_gpu ? "GPU" : "CPU twins";
  const std::string device_was = shape.on_gpu ? "the GPU was" : "the CPU twins were";
  if (s.sink.busy >= mostly)
    return {"sink",
            fmt::format("bound by the sink{}: it was writing {} of the time and the submit thread waited for output "
                        "buffers; the {} side was busy {}",
                        shape.sink.empty() ? "" : " (" + shape.sink + ")", pct(s.sink.busy), device, pct(s.gpu_busy)),
            sink_lift};
  if (s.submit.starved >= often && s.decode.blocked * 4 <= s.submit.starved) return decode_bound(s, shape, device);
  if (shape.on_gpu && shape.pinned && s.gpu_busy >= mostly && s.copy_wait + s.compute_wait >= often &&
      std::max({s.upload.busy, s.compute.busy, s.download.busy}) < engine_near_full)
    return streams_bound(s, shape);
  if (s.copy_wait >= often && s.copy_wait >= s.compute_wait) return copy_bound(s, shape);
  if (s.gpu_busy >= mostly || s.compute_wait >= often)
    return {"compute",
            fmt::format("bound by compute: {} busy {} of the time and the submit thread waited on kernels {}",
                        device_was, pct(s.gpu_busy), pct(s.compute_wait)),
            "copy.batch_size (fewer launches)" +
                (shape.input_size_keys.empty() ? "" : ", " + shape.input_size_keys + " (a smaller network input)")};
  if (s.submit.busy >= 0.6)
    return {"host",
            fmt::format("bound by the submit thread: busy {} of the time packing and launching, starved {}",
                        pct(s.submit.busy), pct(s.submit.starved)),
            "copy.batch_size (fewer calls per frame)"};
  return {"none",
          fmt::format("no single stage bounds it: decode blocked {}, submit starved {}, copies {}, {} busy {}, sink "
                      "busy {}",
                      pct(s.decode.blocked), pct(s.submit.starved), pct(s.copy_wait), device, pct(s.gpu_busy),
                      pct(s.sink.busy)),
          ""};
}

}  // namespace vidpipe
