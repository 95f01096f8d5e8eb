#include "device/gpu_stage_kernels.hpp"

#include "colour/yuv_to_bgr.cuh"
#include "deinterlace/deinterlace.cuh"
#include "device/detector_setup.hpp"
#include "infer/onnx_detector.hpp"
#include "letterbox/resize_letterbox.cuh"
#include "narrow/narrow_yuv.cuh"
#include "normalise/normalise.cuh"
#include "overlay/overlay.cuh"
#include "rotate/rotate_yuv.cuh"
#include "scale/scale_yuv.cuh"
#include "tiny_face/tiny_face_layers.cuh"

namespace vidpipe {

GpuStageKernels::GpuStageKernels(const ExecutorOptions& options, const std::vector<Letterbox>& letterboxes,
                                 const std::optional<TinyFaceNetGpu>& net, const GlyphAtlasView& atlas,
                                 GpuSlot& slot, std::span<const DecodedFrame> frames, const BatchPacking& packing,
                                 OnnxDetector* onnx, std::function<void(StagePoint)> on_reached)
    : o_(options),
      letterboxes_(letterboxes),
      net_(net),
      atlas_(atlas),
      s_(slot),
      frames_(frames),
      pack_(packing),
      onnx_(onnx),
      on_reached_(std::move(on_reached)) {}

std::size_t GpuStageKernels::net_bytes() const {
  return static_cast<std::size_t>(o_.gpu.preprocess.width) * o_.gpu.preprocess.height * 3;
}

std::uint8_t* GpuStageKernels::frame_in(ExecutorOptions::FrameBuffer buffer, int frame) const {
  using B = ExecutorOptions::FrameBuffer;
  cuda::DeviceBuffer& b = buffer == B::decoded ? s_.decoded : buffer == B::narrowed ? s_.narrowed : s_.yuv;
  return b.as() + pack_.at(buffer, frame);
}

void GpuStageKernels::narrow(const FrameRun& r) {
  if (!o_.wide(r.source)) return;
  const YuvLayout& from = o_.decoded(r.source);
  const YuvLayout to = o_.narrowed(r.source);
  launch_narrow_yuv(frame_in(ExecutorOptions::FrameBuffer::decoded, r.first), from, from.frame_bytes, r.count,
                    frame_in(o_.narrowed_into(r.source), r.first), to, to.frame_bytes, s_.stream);
}

void GpuStageKernels::deinterlace(const FrameRun& r) {
  const ExecutorOptions::KeepField keep = o_.keep_field(r.source);
  if (keep == ExecutorOptions::KeepField::none) return;
  // Before the turn: a turned input's rows are still the fields' rows there.
  const YuvLayout l = o_.narrowed(r.source);
  launch_deinterlace(frame_in(o_.unturned_in(r.source), r.first), l, l.frame_bytes, r.count,
                     keep == ExecutorOptions::KeepField::top, s_.stream);
}

void GpuStageKernels::turn_upright(const FrameRun& r) {
  const int turns = o_.turns(r.source);
  if (turns == 0) return;
  const YuvLayout unturned = o_.narrowed(r.source);
  const YuvLayout& upright = o_.layouts[r.source];
  launch_rotate_yuv(frame_in(o_.unturned_in(r.source), r.first), unturned, unturned.frame_bytes, r.count, turns,
                    s_.yuv.as() + pack_.yuv[r.first], upright, upright.frame_bytes, s_.stream);
}

void GpuStageKernels::to_bgr(const FrameRun& r) {
  const YuvLayout& l = o_.layouts[r.source];
  // Frames of one input share its colour metadata.
  launch_yuv_to_bgr(s_.yuv.as() + pack_.yuv[r.first], l, r.count, matrix_for(frames_[r.first].colour),
                    s_.bgr.as() + pack_.bgr[r.first], bgr_stride(l), s_.stream);
}

void GpuStageKernels::letterbox(const FrameRun& r) {
  const YuvLayout& l = o_.layouts[r.source];
  launch_resize_letterbox(s_.bgr.as() + pack_.bgr[r.first], l.width, l.height, bgr_stride(l), r.count,
                          letterboxes_[r.source], s_.boxed.as() + r.first * net_bytes(), net_bytes(), s_.stream);
}

void GpuStageKernels::normalise(int frames) {
  launch_normalise(s_.boxed.as(), o_.gpu.preprocess.width, o_.gpu.preprocess.height, frames,
                   normalisation_for(o_), s_.tensor.as<float>(), s_.stream);
}

void GpuStageKernels::detect(int frames) {
  if (onnx_) return onnx_->infer(s_.tensor.as<float>(), frames);
  // One inference launch for the whole batch, whichever inputs its frames came from.
  net_out_ = o_.gpu.cuda_graphs ? net_->run_graphed(s_.tensor.as<float>(), frames, *s_.net_scratch, s_.stream)
                                : net_->run(s_.tensor.as<float>(), frames, *s_.net_scratch, s_.stream);
}

void GpuStageKernels::decode_boxes(const FrameRun& r) {
  if (onnx_)
    return onnx_->decode(r.first, r.count, letterboxes_[r.source], s_.detections.as<DetectionList>() + r.first);
  const std::size_t out_per_image = static_cast<std::size_t>(TinyFaceWeights::outputs) * net_->cells() * net_->cells();
  launch_decode_faces(net_out_ + r.first * out_per_image, r.count, net_->cells(), letterboxes_[r.source],
                      static_cast<float>(o_.gpu.score_threshold), static_cast<float>(o_.gpu.iou_threshold),
                      s_.detections.as<DetectionList>() + r.first, s_.stream);
}

void GpuStageKernels::draw_boxes(const FrameRun& r) {
  const YuvLayout& l = o_.layouts[r.source];
  launch_draw_detections(s_.yuv.as() + pack_.yuv[r.first], l, r.count, s_.detections.as<DetectionList>() + r.first,
                         atlas_, overlay_style_for(l), s_.stream);
}

void GpuStageKernels::draw_hud(const FrameRun& r, const HudText& hud) {
  const YuvLayout& l = o_.layouts[r.source];
  launch_draw_hud(s_.yuv.as() + pack_.yuv[r.first], l, r.count, hud, atlas_, hud_scale_for(l), s_.stream);
}

void GpuStageKernels::scale_output(const FrameRun& r) {
  const YuvLayout& in = o_.layouts[r.source];
  const YuvLayout& out = output_layout(o_.layouts, o_.out_layouts, r.source);
  if (!scales(in, out)) return;
  launch_scale_yuv(s_.yuv.as() + pack_.yuv[r.first], in, in.frame_bytes, r.count, s_.scaled.as() + pack_.out[r.first],
                   out, out.frame_bytes, s_.stream);
}

}  // namespace vidpipe
