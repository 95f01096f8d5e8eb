// The device side of the pipeline: upload, GPU stage and download of a batch of
// frames in one "slot" (a set of device buffers tied to one stream). The GPU
// executor queues work on CUDA streams; the CPU executor runs the kernels' CPU
// references, so the same pipeline runs on a machine without a GPU.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/image_types.hpp"
#include "letterbox/letterbox.hpp"
#include "metrics/run_metrics.hpp"
#include "tiny_face/tiny_face_net.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

enum class CopyMode { sync, async };

struct ExecutorOptions {
  CopyMode mode = CopyMode::async;
  int streams = 2;
  int batch_size = 1;
  std::size_t chunk_bytes = 0;  // 0: one copy per frame
  int device = 0;
  // The frame layout of each input (DecodedFrame::source indexes it). Frames of
  // several inputs can share a batch: preprocessing runs per input, inference once.
  std::vector<YuvLayout> layouts;
  int net_width = 416, net_height = 416;
  LetterboxAlign align = LetterboxAlign::top_left;
  Normalisation norm = tiny_face_normalisation();
  // Face detection; no model: the GPU stage stops after preprocessing.
  std::shared_ptr<const TinyFaceWeights> model;
  float score_threshold = 0.4f, iou_threshold = 0.4f;
  bool draw_boxes = true, draw_hud = true;
  double clock_origin = 0;      // steady-clock seconds of pipeline time 0
  // Reliability tests only (fault_injection.hpp): the batch holding this frame traps.
  std::int64_t fault_trap_at_frame = -1;
};

struct BatchTimings {
  double h2d_ms = 0, compute_ms = 0, d2h_ms = 0;
  double preprocess_ms = 0, infer_ms = 0;  // parts of compute_ms
  double gpu_begin = 0, gpu_end = 0;  // pipeline clock seconds
  std::size_t h2d_bytes = 0, d2h_bytes = 0;
  int stream = 0;  // which CUDA stream (or 0 on the CPU) ran the batch
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual int slots() const = 0;
  virtual std::string device_name() const = 0;
  // Blocks until the slot's previous batch has left the device; the time is
  // recorded in `metrics` as compute wait, then copy wait, by what was pending.
  virtual void wait_idle(int slot, RunMetrics& metrics) = 0;
  // Queues upload, GPU stage and download of `frames`; frame i's result goes to
  // outputs[i] (a host buffer of its input's layout.frame_bytes). Frames of one input
  // must be consecutive (see runs_of). In sync mode this returns only when all of it is done.
  virtual void submit(int slot, std::span<const DecodedFrame> frames,
                      std::span<std::uint8_t* const> outputs, RunMetrics& metrics) = 0;
  // Switches copies between blocking and queued from the next submit on (the
  // display's s key); the GPU executor only, and only if it was built async.
  virtual void set_mode(CopyMode) {}
  // Blocks until the slot's batch is done; then its timings are valid.
  virtual BatchTimings wait_done(int slot) = 0;
  // The network input the slot's last batch produced (planar RGB float), for tests.
  virtual std::vector<float> read_tensor(int slot) = 0;
  // Per frame of the slot's last batch; valid after wait_done().
  virtual std::vector<DetectionList> detections(int slot) = 0;
};

// Consecutive frames of one input in a batch: they share layout, letterbox and colour
// matrix, so their preprocessing and overlay kernels run as one launch.
struct FrameRun {
  int first = 0, count = 0, source = 0;
};
std::vector<FrameRun> runs_of(std::span<const DecodedFrame> frames);

// Where frame i of a batch starts in a slot's packed buffers, and how big they are.
struct BatchPacking {
  std::vector<std::size_t> yuv, bgr;  // byte offsets
  std::size_t yuv_bytes = 0, bgr_bytes = 0;
};
BatchPacking pack_batch(std::span<const DecodedFrame> frames, const std::vector<YuvLayout>& layouts);

// The largest frame of any input, for sizing buffers.
std::size_t max_frame_bytes(const std::vector<YuvLayout>& layouts);
std::size_t max_pixels(const std::vector<YuvLayout>& layouts);

// Overlay style for a frame size: lines and text that stay visible at 4K.
OverlayStyle overlay_style_for(const YuvLayout& layout);
int hud_scale_for(const YuvLayout& layout);

std::unique_ptr<Executor> make_cpu_executor(const ExecutorOptions& options);
std::unique_ptr<Executor> make_gpu_executor(const ExecutorOptions& options);

// The colour matrix for a frame.
ColourMatrix matrix_for(const FrameColour& colour);

}  // namespace vidpipe
