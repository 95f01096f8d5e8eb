// The GPU stage's steps as the kernels' CPU twins, over one batch in host buffers laid
// out as the GPU executor's slots are (batch_packing.hpp).
#pragma once
#include <functional>
#include <memory>
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
  std::uint8_t* scaled = nullptr;  // packed outputs at sink.width/height (BatchPacking::out)
  std::uint8_t* decoded = nullptr;   // frames as copied in, where an input is turned or wide
  std::uint8_t* narrowed = nullptr;  // 8-bit 4:2:0 before the turn, where an input is both
  OnnxDetector* onnx = nullptr;      // the user's model, where options.onnx names one
};

// The CPU twins' steps over one batch; `on_reached` is told the timing points.
std::unique_ptr<GpuStageSteps> make_cpu_stage_twins(const ExecutorOptions& options,
                                                    const std::vector<Letterbox>& letterboxes,
                                                    const GlyphAtlasView& atlas, std::span<const DecodedFrame> frames,
                                                    const BatchPacking& packing, const CpuBatchBuffers& buffers,
                                                    std::function<void(StagePoint)> on_reached);

}  // namespace vidpipe
