// Executor on the host: "device" buffers are host vectors, copies are memcpy (timed as
// copy waits, as the blocking copies they stand for), and the GPU stage runs on the
// kernels' CPU twins in the order gpu_stage.cpp writes.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

#include "device/cpu_stage_twins.hpp"
#include "device/executor.hpp"
#include "device/glyph_atlas.hpp"
#include "infer/onnx_detector.hpp"

namespace vidpipe {

namespace {

class CpuExecutor final : public Executor {
 public:
  explicit CpuExecutor(const ExecutorOptions& o)
      : o_(o), batch_(std::max(1, o.copy.batch_size)), atlas_(make_glyph_atlas()), atlas_view_(atlas_.view(atlas_.pixels.data())) {
    const std::size_t net_pixels = static_cast<std::size_t>(o.gpu.preprocess.width) * o.gpu.preprocess.height;
    yuv_.resize(batch_ * max_frame_bytes(o.layouts));
    bgr_.resize(batch_ * max_pixels(o.layouts) * 3);
    boxed_.resize(batch_ * net_pixels * 3);
    tensor_.resize(batch_ * net_pixels * 3);
    if (!o.out_layouts.empty()) scaled_.resize(batch_ * max_frame_bytes(o.out_layouts));
    if (!o.decoded_layouts.empty()) decoded_.resize(batch_ * max_frame_bytes(o.decoded_layouts));
    narrowed_.resize(narrowed_buffer_bytes(o, batch_));
    letterboxes_ = letterboxes_for(o);
    if (o.onnx) onnx_ = make_host_onnx_detector(*o.onnx);
  }

  int slots() const override { return 1; }
  std::string device_name() const override { return "cpu"; }
  HostWaits wait_idle(int) override { return {}; }
  // On the host both programs copy with memcpy; the mode says which one the run is
  // standing in for, and the records carry it as the GPU executor's do.
  void set_mode(CopyMode mode) override {
    if (o_.copy.mode == CopyMode::async) requested_mode_ = mode;
  }

  HostWaits submit(int, std::span<const DecodedFrame> frames, std::span<std::uint8_t* const> outputs,
                   const HudLines& hud) override {
    if (static_cast<int>(frames.size()) > batch_) throw std::logic_error("CPU executor given more than a batch");
    HostWaits waits;
    timings_ = {};
    timings_.copies = requested_mode_;
    frames_ = static_cast<int>(frames.size());
    const BatchPacking pack = pack_batch(frames, o_);
    detections_.assign(frames.size(), DetectionList{});
    const bool copies = !(o_.gpu_stage_only && primed_);
    primed_ = true;
    const double uploaded = copies ? copy_in(frames, pack, waits) : (timings_.gpu_begin = now());
    double preprocessed = 0, inferred = 0, overlaid = 0;
    const auto twins = make_cpu_stage_twins(
        o_, letterboxes_, atlas_view_, frames, pack,
        {yuv_.data(), bgr_.data(), boxed_.data(), tensor_.data(), detections_.data(), scaled_.data(),
         decoded_.data(), narrowed_.data(), onnx_.get()}, [&](StagePoint p) {
          (p == StagePoint::preprocessed ? preprocessed : p == StagePoint::inferred ? inferred : overlaid) = now();
        });
    run_gpu_stage(*twins, runs_of(frames), frames_, {o_.detects(), o_.overlay.boxes, o_.overlay.hud}, hud);
    if (!o_.gpu_stage_only) copy_out(frames, outputs, pack, waits);
    timings_.h2d_ms = (uploaded - timings_.gpu_begin) * 1e3;
    timings_.preprocess_ms = (preprocessed - uploaded) * 1e3;
    timings_.infer_ms = (inferred - preprocessed) * 1e3;
    timings_.compute_ms = (overlaid - uploaded) * 1e3;
    timings_.gpu_end = now();
    timings_.d2h_ms = (timings_.gpu_end - overlaid) * 1e3;
    return waits;
  }

  BatchTimings wait_done(int) override { return timings_; }
  std::vector<float> read_tensor(int) override {
    const std::size_t per_frame = tensor_.size() / batch_;
    return std::vector<float>(tensor_.begin(), tensor_.begin() + frames_ * per_frame);
  }
  std::vector<DetectionList> detections(int) override { return detections_; }

 private:
  double now() const { return steady_seconds() - o_.clock_origin; }

  // Returns when the "upload" ended.
  double copy_in(std::span<const DecodedFrame> frames, const BatchPacking& pack, HostWaits& waits) {
    timings_.gpu_begin = now();
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].on_device()) throw std::logic_error("CPU executor given an NVDEC frame");
      const std::size_t bytes = o_.decoded(frames[i].source).frame_bytes;
      const bool to_decoded = o_.uploaded_into(frames[i].source) == ExecutorOptions::FrameBuffer::decoded;
      TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
      std::memcpy(to_decoded ? decoded_.data() + pack.decoded[i] : yuv_.data() + pack.yuv[i], frames[i].data(), bytes);
      timings_.h2d_bytes += bytes;
    }
    return now();
  }

  void copy_out(std::span<const DecodedFrame> frames, std::span<std::uint8_t* const> outputs,
                const BatchPacking& pack, HostWaits& waits) {
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const YuvLayout& in = o_.layouts[frames[i].source];
      const YuvLayout& out = output_layout(o_.layouts, o_.out_layouts, frames[i].source);
      const std::uint8_t* result = scales(in, out) ? scaled_.data() + pack.out[i] : yuv_.data() + pack.yuv[i];
      TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
      std::memcpy(outputs[i], result, out.frame_bytes);
      timings_.d2h_bytes += out.frame_bytes;
    }
  }

  ExecutorOptions o_;
  int batch_;
  std::vector<Letterbox> letterboxes_;
  std::unique_ptr<OnnxDetector> onnx_;
  GlyphAtlas atlas_;
  GlyphAtlasView atlas_view_;
  std::vector<std::uint8_t> yuv_, bgr_, boxed_, scaled_, decoded_, narrowed_;
  std::vector<float> tensor_;
  std::vector<DetectionList> detections_;
  BatchTimings timings_;
  int frames_ = 0;
  bool primed_ = false;  // gpu_stage_only: the buffers hold the frames already
  std::atomic<CopyMode> requested_mode_{o_.copy.mode};
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor(const ExecutorOptions& options) {
  return std::make_unique<CpuExecutor>(options);
}

}  // namespace vidpipe
