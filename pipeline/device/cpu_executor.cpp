// Executor on the host: "device" buffers are host vectors, copies are memcpy, and
// the GPU stage is the kernels' CPU references.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "device/executor.hpp"
#include "device/glyph_atlas.hpp"
#include "colour/yuv_to_bgr_ref.hpp"
#include "letterbox/resize_letterbox_ref.hpp"
#include "normalise/normalise_ref.hpp"
#include "overlay/overlay_ref.hpp"
#include "tiny_face/tiny_face_layers_ref.hpp"

namespace vidpipe {

namespace {

class CpuExecutor final : public Executor {
 public:
  explicit CpuExecutor(const ExecutorOptions& o)
      : o_(o),
        atlas_(make_glyph_atlas()),
        yuv_(max_frame_bytes(o.layouts)),
        bgr_(max_pixels(o.layouts) * 3),
        boxed_(static_cast<std::size_t>(o.net_width) * o.net_height * 3),
        tensor_(static_cast<std::size_t>(o.net_width) * o.net_height * 3) {
    for (const YuvLayout& l : o.layouts)
      letterboxes_.push_back(make_letterbox(l.width, l.height, o.net_width, o.net_height, o.align));
  }

  int slots() const override { return 1; }
  std::string device_name() const override { return "cpu"; }
  void wait_idle(int, RunMetrics&) override {}

  void submit(int, std::span<const DecodedFrame> frames, std::span<std::uint8_t* const> outputs,
              RunMetrics& metrics) override {
    timings_ = {};
    timings_.gpu_begin = now();
    detections_.assign(frames.size(), DetectionList{});
    const HudText hud = o_.draw_hud ? metrics.hud_text() : HudText{};
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].on_device()) throw std::logic_error("CPU executor given an NVDEC frame");
      const YuvLayout& layout = o_.layouts.at(frames[i].source);
      const Letterbox& lb = letterboxes_[frames[i].source];
      const double a = now();
      {
        ScopedWait wait(metrics, WaitKind::copy, o_.clock_origin);
        std::memcpy(yuv_.data(), frames[i].data(), layout.frame_bytes);
      }
      const double b = now();
      reference::yuv_to_bgr(yuv_.data(), layout, matrix_for(frames[i].colour), bgr_.data());
      reference::resize_letterbox(bgr_.data(), layout.width, layout.height, lb, boxed_.data());
      reference::normalise(boxed_.data(), o_.net_width, o_.net_height, o_.norm, tensor_.data());
      const double p = now();
      if (o_.model) {
        const std::vector<float> out = reference::tiny_face_forward(*o_.model, tensor_.data(), o_.net_width);
        detections_[i] = reference::decode_faces(out.data(), TinyFaceShape(o_.net_width).cells(), lb,
                                                 o_.score_threshold, o_.iou_threshold);
      }
      const double q = now();
      const GlyphAtlasView atlas = atlas_.view(atlas_.pixels.data());
      if (o_.model && o_.draw_boxes)
        reference::draw_detections(yuv_.data(), layout, detections_[i], atlas, overlay_style_for(layout));
      reference::draw_hud(yuv_.data(), layout, hud, atlas, hud_scale_for(layout));
      const double c = now();
      {
        ScopedWait wait(metrics, WaitKind::copy, o_.clock_origin);
        std::memcpy(outputs[i], yuv_.data(), layout.frame_bytes);
      }
      const double d = now();
      timings_.h2d_ms += (b - a) * 1e3;
      timings_.preprocess_ms += (p - b) * 1e3;
      timings_.infer_ms += (q - p) * 1e3;
      timings_.compute_ms += (c - b) * 1e3;
      timings_.d2h_ms += (d - c) * 1e3;
      timings_.h2d_bytes += layout.frame_bytes;
    }
    timings_.d2h_bytes = timings_.h2d_bytes;
    timings_.gpu_end = now();
  }

  BatchTimings wait_done(int) override { return timings_; }
  std::vector<float> read_tensor(int) override { return tensor_; }
  std::vector<DetectionList> detections(int) override { return detections_; }

 private:
  double now() const { return steady_seconds() - o_.clock_origin; }

  ExecutorOptions o_;
  std::vector<Letterbox> letterboxes_;
  GlyphAtlas atlas_;
  std::vector<std::uint8_t> yuv_, bgr_, boxed_;
  std::vector<float> tensor_;
  std::vector<DetectionList> detections_;
  BatchTimings timings_;
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor(const ExecutorOptions& options) {
  return std::make_unique<CpuExecutor>(options);
}

}  // namespace vidpipe
