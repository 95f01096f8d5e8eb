// Where the frame rate goes: each stage's share of the measured window spent busy,
// starved (waiting for input from upstream) and blocked (waiting for room downstream),
// and the verdict of which stage bounds the frame rate. The rule is docs/ARCHITECTURE.md's
// "Which stage bounds the frame rate".
#pragma once
#include <functional>
#include <string>

namespace vidpipe {

// Host intervals the drivers and readers report besides the executors' waits.
enum class StageSpan {
  decoding,        // a reader thread inside the decoder (less the time it waited for a pool buffer)
  decode_blocked,  // a reader waiting for a pool buffer or for room in the queue
  submit_starved,  // the submit thread waiting for a decoded frame
  sink_writing,    // the sink thread inside Sink::write
  sink_starved,    // the sink thread waiting for a finished frame
  count
};

struct StageShare {
  double busy = 0, starved = 0, blocked = 0;  // fractions of the window
};

struct StageShares {
  StageShare decode, submit, upload, compute, download, sink;
  double copy_wait = 0, compute_wait = 0;  // the submit thread's blocked share, by what it waited on
  double gpu_busy = 0;
};

struct RunShape {
  bool sync = false;        // one thread does everything (copy.mode: sync)
  bool on_gpu = true;       // the stage runs on a CUDA device (else the CPU twins)
  int decoder_threads = 1;  // across all inputs
  double fps = 0;
  // What the copies carried over the window (bytes a frame x fps, 10^9 bytes a second): with
  // several streams a copy queues behind another's on the engine, so a copy's own rate
  // (the report's h2d_GB_per_s) reads low just when the link is full.
  double h2d_carried_gbps = 0, d2h_carried_gbps = 0;
  std::string sink;  // what the (first) sink does, e.g. "encode libx264 veryfast, 3840x2160 -> out.mp4"
  // Every input decodes on NVDEC: decoder_threads then counts its sessions (one parsing
  // thread each), and what lifts a decode bound is more sessions, not more threads.
  bool nvdec = false;
  int streams = 1;     // copy.streams
  bool pinned = true;  // copy.memory: pinned (pageable copies hold the host thread whatever the streams)
  // A file split over CPU and NVDEC decoders (reader.decoders: [cpu, nvdec]): each kind's
  // decoders, rate and busy share as of the call ("" when no input mixes kinds), for the
  // verdict to say which kind bounds and how long the others waited.
  std::function<std::string()> mixed_decoders;
  // The keys that set the network's input size, for a compute bound's advice: the built-in
  // detector's, an ONNX model's of open size; "" for an ONNX model of fixed size.
  std::string input_size_keys = "gpu.preprocess.width";
};

// An engine (H2D, the SMs, D2H) busy this share of the time or more is at its limit. Below
// it, with the streams never empty, there are too few streams to keep the engines fed: the
// verdict and both forecasts (the sync run's and the bench's) then name "streams".
inline constexpr double engine_near_full = 0.8;

struct Bottleneck {
  std::string stage;     // decode | copy | streams | compute | host | sink | none
  std::string evidence;  // one sentence, with the figures behind the verdict
  std::string lift;      // what would raise the bound: keys to change
};

Bottleneck judge_bottleneck(const StageShares& shares, const RunShape& shape);

}  // namespace vidpipe
