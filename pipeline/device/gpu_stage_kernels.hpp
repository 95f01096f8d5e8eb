// The GPU stage's steps as kernel launches on one slot's stream.
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "device/executor.hpp"
#include "device/gpu_slot.hpp"
#include "device/gpu_stage.hpp"

namespace vidpipe {

class GpuStageKernels final : public GpuStageSteps {
 public:
  GpuStageKernels(const ExecutorOptions& options, const std::vector<Letterbox>& letterboxes,
                  const std::optional<TinyFaceNetGpu>& net, const GlyphAtlasView& atlas, GpuSlot& slot,
                  std::span<const DecodedFrame> frames, const BatchPacking& packing, OnnxDetector* onnx,
                  std::function<void(StagePoint)> on_reached);

  void narrow(const FrameRun& run) override;
  void deinterlace(const FrameRun& run) override;
  void turn_upright(const FrameRun& run) override;
  void to_bgr(const FrameRun& run) override;
  void letterbox(const FrameRun& run) override;
  void normalise(int frames) override;
  void detect(int frames) override;
  void decode_boxes(const FrameRun& run) override;
  void draw_boxes(const FrameRun& run) override;
  void draw_hud(const FrameRun& run, const HudText& hud) override;
  void scale_output(const FrameRun& run) override;
  void reached(StagePoint point) override { on_reached_(point); }

 private:
  std::size_t net_bytes() const;  // one letterboxed frame
  std::uint8_t* frame_in(ExecutorOptions::FrameBuffer buffer, int frame) const;
  std::size_t bgr_stride(const YuvLayout& l) const { return static_cast<std::size_t>(l.width) * l.height * 3; }

  const ExecutorOptions& o_;
  const std::vector<Letterbox>& letterboxes_;
  const std::optional<TinyFaceNetGpu>& net_;
  const GlyphAtlasView& atlas_;
  GpuSlot& s_;
  std::span<const DecodedFrame> frames_;
  const BatchPacking& pack_;
  OnnxDetector* onnx_;  // the user's model on this slot's stream, where options.onnx names one
  std::function<void(StagePoint)> on_reached_;
  const float* net_out_ = nullptr;  // from detect(), for decode_boxes()
};

}  // namespace vidpipe
