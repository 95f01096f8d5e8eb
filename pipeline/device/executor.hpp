// The device side of the pipeline: upload, GPU stage and download of a batch of frames
// in one "slot" (a set of device buffers tied to one stream). The GPU executor queues
// work on CUDA streams; the CPU executor runs the kernels' CPU twins, so the same
// pipeline runs on a machine without a GPU. Both run the GPU stage in the one order
// gpu_stage.cpp writes; they keep only slots, streams, events and copies. They hand
// their host waits back to the caller instead of recording them anywhere.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/image_types.hpp"
#include "device/copy_config.hpp"
#include "device/gpu_config.hpp"
#include "device/host_wait.hpp"
#include "memory/frame_layout.hpp"
#include "source/video_reader.hpp"
#include "tiny_face/tiny_face_net.hpp"

namespace vidpipe {

struct OnnxSetup;
class OnnxDetector;

struct ExecutorOptions {
  CopyConfig copy;        // copy.* (copy.memory is the reader's: it owns the host frames)
  GpuConfig gpu;          // gpu.*: device, preprocessing, thresholds
  OverlayConfig overlay;  // overlay.*
  // The frame layout of each input (DecodedFrame::source indexes it). Frames of
  // several inputs can share a batch: preprocessing runs per input, inference once.
  std::vector<YuvLayout> layouts;
  // The layout of each input's output (sink.width/height); empty, or equal to the
  // input's size: not scaled, the frame is downloaded as it was decoded.
  std::vector<YuvLayout> out_layouts;
  // Inputs whose display matrix turns them: the clockwise quarter turns of each. Empty: none.
  std::vector<int> quarter_turns;
  // The layout each input is uploaded in, where some input is turned or wider than 8-bit
  // 4:2:0 (layouts then hold the narrow, upright frame). Empty: all go in as worked on.
  std::vector<YuvLayout> decoded_layouts;
  int turns(int source) const { return quarter_turns.empty() ? 0 : quarter_turns[source]; }
  bool wide(int source) const { return !decoded(source).narrow(); }
  // Where a frame sits on its way from the upload to the buffer the stage works on:
  //   decoded --narrow--> narrowed --deinterlace (in place), turn--> yuv
  // A step without work is skipped, and so is the buffer it would have filled.
  enum class FrameBuffer { decoded, narrowed, yuv };
  FrameBuffer uploaded_into(int source) const {
    return wide(source) || turns(source) != 0 ? FrameBuffer::decoded : FrameBuffer::yuv;
  }
  FrameBuffer narrowed_into(int source) const { return turns(source) != 0 ? FrameBuffer::narrowed : FrameBuffer::yuv; }
  // Where the frame is narrow but not yet turned: what deinterlacing works on, the turn reads.
  FrameBuffer unturned_in(int source) const {
    return turns(source) == 0 ? FrameBuffer::yuv : wide(source) ? FrameBuffer::narrowed : FrameBuffer::decoded;
  }
  YuvLayout narrowed(int source) const { return narrowed_layout(decoded(source)); }
  // Each input's sample aspect (SAR) upright, so the detector sees the display aspect; empty: 1.
  std::vector<double> sample_aspects;
  double sample_aspect(int source) const { return sample_aspects.empty() ? 1.0 : sample_aspects[source]; }
  // Inputs deinterlaced before anything else (reader.deinterlace): the field each keeps.
  enum class KeepField { none, top, bottom };
  std::vector<KeepField> deinterlace;  // empty: none
  KeepField keep_field(int source) const { return deinterlace.empty() ? KeepField::none : deinterlace[source]; }
  const YuvLayout& decoded(int source) const {
    return decoded_layouts.empty() ? layouts[source] : decoded_layouts[source];
  }
  // Face detection, loaded from gpu.model; null: the GPU stage stops after preprocessing.
  std::shared_ptr<const TinyFaceWeights> model;
  // A user's ONNX model (gpu.model ending in .onnx) instead; gpu.preprocess then holds its
  // input's size (device/detector_setup.hpp).
  std::shared_ptr<const OnnxSetup> onnx;
  bool detects() const { return model != nullptr || onnx != nullptr; }
  double clock_origin = 0;  // steady-clock seconds of pipeline time 0
  // `vidpipe bench`'s compute limit only: each slot uploads its first batch and then reruns
  // the GPU stage on it, nothing downloaded, so the stage's own rate is what is timed.
  bool gpu_stage_only = false;
  // Reliability tests only (fault_injection.hpp): the batch holding this frame traps.
  std::int64_t fault_trap_at_frame = -1;
};

// One input, uploaded as decoded and worked on narrowed, not turned (tests and tools that
// drive an executor by hand; a run sets its inputs with set_input_layouts).
inline void set_one_input(ExecutorOptions& o, const YuvLayout& decoded) {
  o.layouts = {narrowed_layout(decoded)};
  o.decoded_layouts.clear();
  if (!decoded.narrow()) o.decoded_layouts = {decoded};
}

struct BatchTimings {
  double h2d_ms = 0, compute_ms = 0, d2h_ms = 0;
  double preprocess_ms = 0, infer_ms = 0;  // parts of compute_ms
  double gpu_begin = 0, gpu_end = 0;       // pipeline clock seconds
  std::size_t h2d_bytes = 0, d2h_bytes = 0;
  int stream = 0;  // which CUDA stream (or 0 on the CPU) ran the batch
  CopyMode copies = CopyMode::async;  // how the batch's copies ran (the display's s key switches it)
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual int slots() const = 0;
  virtual std::string device_name() const = 0;
  // Blocks until the slot's previous batch has left the device; returns the time
  // blocked, as compute wait, then copy wait, by what was pending.
  virtual HostWaits wait_idle(int slot) = 0;
  // Queues upload, GPU stage and download of `frames`; frame i's result goes to
  // outputs[i] (a host buffer of its input's output layout's frame_bytes). Frames of one input
  // must be consecutive (see runs_of). `hud` is drawn when overlay.hud is on. In sync
  // mode this returns only when all of it is done. Returns the time blocked on copies.
  // Frames on the device (NVDEC) have been copied into the slot by the time it returns:
  // the caller may release them at once.
  virtual HostWaits submit(int slot, std::span<const DecodedFrame> frames, std::span<std::uint8_t* const> outputs,
                           const HudLines& hud) = 0;
  // Switches copies between blocking and queued from the next submit on (the
  // display's s key); only an executor built async switches.
  virtual void set_mode(CopyMode mode) = 0;
  // Blocks until the slot's batch is done; then its timings are valid.
  virtual BatchTimings wait_done(int slot) = 0;
  // The network input the slot's last batch produced (planar RGB float), for tests.
  virtual std::vector<float> read_tensor(int slot) = 0;
  // Per frame of the slot's last batch; valid after wait_done().
  virtual std::vector<DetectionList> detections(int slot) = 0;
};

std::unique_ptr<Executor> make_cpu_executor(const ExecutorOptions& options);
std::unique_ptr<Executor> make_gpu_executor(const ExecutorOptions& options);

}  // namespace vidpipe
