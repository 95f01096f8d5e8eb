// The GPU stage's steps as the kernels' CPU twins, each looping over the frames of a run.
#include "device/cpu_stage_twins.hpp"

#include <functional>

#include "colour/yuv_to_bgr_ref.hpp"
#include "deinterlace/deinterlace_ref.hpp"
#include "device/detector_setup.hpp"
#include "infer/onnx_detector.hpp"
#include "letterbox/resize_letterbox_ref.hpp"
#include "narrow/narrow_yuv_ref.hpp"
#include "normalise/normalise_ref.hpp"
#include "overlay/overlay_ref.hpp"
#include "rotate/rotate_yuv_ref.hpp"
#include "scale/scale_yuv_ref.hpp"
#include "tiny_face/tiny_face_layers_ref.hpp"

namespace vidpipe {
namespace {

class CpuStageTwins final : public GpuStageSteps {
 public:
  CpuStageTwins(const ExecutorOptions& options, const std::vector<Letterbox>& letterboxes, const GlyphAtlasView& atlas,
                std::span<const DecodedFrame> frames, const BatchPacking& packing, const CpuBatchBuffers& buffers,
                std::function<void(StagePoint)> on_reached)
      : o_(options),
        letterboxes_(letterboxes),
        atlas_(atlas),
        frames_(frames),
        pack_(packing),
        b_(buffers),
        on_reached_(std::move(on_reached)),
        net_out_(frames.size()) {}

  void narrow(const FrameRun& run) override {
    if (!o_.wide(run.source)) return;
    const YuvLayout to = o_.narrowed(run.source);
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::narrow_yuv(frame_in(ExecutorOptions::FrameBuffer::decoded, i), o_.decoded(run.source),
                            frame_in(o_.narrowed_into(run.source), i), to);
  }

  void deinterlace(const FrameRun& run) override {
    const ExecutorOptions::KeepField keep = o_.keep_field(run.source);
    if (keep == ExecutorOptions::KeepField::none) return;
    const YuvLayout l = o_.narrowed(run.source);
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::deinterlace(frame_in(o_.unturned_in(run.source), i), l, keep == ExecutorOptions::KeepField::top);
  }

  void turn_upright(const FrameRun& run) override {
    const int turns = o_.turns(run.source);
    if (turns == 0) return;
    const YuvLayout unturned = o_.narrowed(run.source);
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::rotate_yuv(frame_in(o_.unturned_in(run.source), i), unturned, turns, b_.yuv + pack_.yuv[i],
                            o_.layouts[run.source]);
  }

  void to_bgr(const FrameRun& run) override {
    const YuvLayout& l = o_.layouts[run.source];
    const FrameColour& colour = frames_[run.first].colour;
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::yuv_to_bgr(b_.yuv + pack_.yuv[i], l, colour.standard, colour.range, b_.bgr + pack_.bgr[i]);
  }

  void letterbox(const FrameRun& run) override {
    const YuvLayout& l = o_.layouts[run.source];
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::resize_letterbox(b_.bgr + pack_.bgr[i], l.width, l.height, letterboxes_[run.source],
                                  b_.boxed + i * net_bytes());
  }

  void normalise(int frames) override {
    const Normalisation norm = normalisation_for(o_);
    const int w = o_.gpu.preprocess.width, h = o_.gpu.preprocess.height;
    for (int i = 0; i < frames; ++i) reference::normalise(b_.boxed + i * net_bytes(), w, h, norm, b_.tensor + i * net_bytes());
  }

  void detect(int frames) override {
    if (b_.onnx) return b_.onnx->infer(b_.tensor, frames);
    for (int i = 0; i < frames; ++i)
      net_out_[i] = reference::tiny_face_forward(*o_.model, b_.tensor + i * net_bytes(), o_.gpu.preprocess.width);
  }

  void decode_boxes(const FrameRun& run) override {
    if (b_.onnx) return b_.onnx->decode(run.first, run.count, letterboxes_[run.source], b_.detections + run.first);
    const int cells = TinyFaceShape(o_.gpu.preprocess.width).cells();
    for (int i = run.first; i < run.first + run.count; ++i)
      b_.detections[i] = reference::decode_faces(net_out_[i].data(), cells, letterboxes_[run.source],
                                                 static_cast<float>(o_.gpu.score_threshold),
                                                 static_cast<float>(o_.gpu.iou_threshold));
  }

  void draw_boxes(const FrameRun& run) override {
    const YuvLayout& l = o_.layouts[run.source];
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::draw_detections(b_.yuv + pack_.yuv[i], l, b_.detections[i], atlas_, overlay_style_for(l));
  }

  void draw_hud(const FrameRun& run, const HudText& hud) override {
    const YuvLayout& l = o_.layouts[run.source];
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::draw_hud(b_.yuv + pack_.yuv[i], l, hud, atlas_, hud_scale_for(l));
  }

  void scale_output(const FrameRun& run) override {
    const YuvLayout& in = o_.layouts[run.source];
    const YuvLayout& out = output_layout(o_.layouts, o_.out_layouts, run.source);
    if (!scales(in, out)) return;
    for (int i = run.first; i < run.first + run.count; ++i)
      reference::scale_yuv(b_.yuv + pack_.yuv[i], in, b_.scaled + pack_.out[i], out);
  }

  void reached(StagePoint point) override { on_reached_(point); }

 private:
  std::uint8_t* frame_in(ExecutorOptions::FrameBuffer buffer, int frame) const {
    using B = ExecutorOptions::FrameBuffer;
    std::uint8_t* base = buffer == B::decoded ? b_.decoded : buffer == B::narrowed ? b_.narrowed : b_.yuv;
    return base + pack_.at(buffer, frame);
  }

  // One letterboxed frame.
  std::size_t net_bytes() const {
    return static_cast<std::size_t>(o_.gpu.preprocess.width) * o_.gpu.preprocess.height * 3;
  }

  const ExecutorOptions& o_;
  const std::vector<Letterbox>& letterboxes_;
  const GlyphAtlasView& atlas_;
  std::span<const DecodedFrame> frames_;
  const BatchPacking& pack_;
  CpuBatchBuffers b_;
  std::function<void(StagePoint)> on_reached_;
  std::vector<std::vector<float>> net_out_;  // per frame, from detect() for decode_boxes()
};

}  // namespace

std::unique_ptr<GpuStageSteps> make_cpu_stage_twins(const ExecutorOptions& options,
                                                    const std::vector<Letterbox>& letterboxes,
                                                    const GlyphAtlasView& atlas, std::span<const DecodedFrame> frames,
                                                    const BatchPacking& packing, const CpuBatchBuffers& buffers,
                                                    std::function<void(StagePoint)> on_reached) {
  return std::make_unique<CpuStageTwins>(options, letterboxes, atlas, frames, packing, buffers, std::move(on_reached));
}

}  // namespace vidpipe
