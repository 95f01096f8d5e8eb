// The GPU stage's steps as the kernels' CPU twins, over one batch in host buffers laid
// out as the GPU executor's slots are (batch_packing.hpp).
#pragma once
#include <functional>
#include <span>
#include <vector>

#include "device/executor.hpp"
#include "device/gpu_stage.hpp"

namespace vidpipe {

struct CpuBatchBuffers {
  std::uint8_t* yuv = nullptr;    // packed frames, modified in place by the overlay
  std::uint8_t* bgr = nullptr;    // full-size BGR per frame
  std::uint8_t* boxed = nullptr;  // letterboxed network input per frame
  float* tensor = nullptr;        // normalised, planar RGB per frame
  DetectionList* detections = nullptr;
};

class CpuStageTwins final : public GpuStageSteps {
 public:
  CpuStageTwins(const ExecutorOptions& options, const std::vector<Letterbox>& letterboxes,
                const GlyphAtlasView& atlas, std::span<const DecodedFrame> frames, const BatchPacking& packing,
                const CpuBatchBuffers& buffers, std::function<void(StagePoint)> on_reached);

  void to_bgr(const FrameRun& run) override;
  void letterbox(const FrameRun& run) override;
  void normalise(int frames) override;
  void detect(int frames) override;
  void decode_boxes(const FrameRun& run) override;
  void draw_boxes(const FrameRun& run) override;
  void draw_hud(const FrameRun& run, const HudText& hud) override;
  void reached(StagePoint point) override { on_reached_(point); }

 private:
  std::size_t net_bytes() const;  // one letterboxed frame

  const ExecutorOptions& o_;
  const std::vector<Letterbox>& letterboxes_;
  const GlyphAtlasView& atlas_;
  std::span<const DecodedFrame> frames_;
  const BatchPacking& pack_;
  CpuBatchBuffers b_;
  std::function<void(StagePoint)> on_reached_;
  std::vector<std::vector<float>> net_out_;  // per frame, from detect() for decode_boxes()
};

}  // namespace vidpipe
