// The GPU stage's order, written once for both backends (DALI's twins behind one
// interface): per run of frames of one input, narrowing to 8-bit 4:2:0, deinterlacing, the
// turn upright, colour conversion and letterbox; for the batch, normalisation and the detector; per run, box decoding, the
// overlay and the scale to the output size. The GPU
// executor implements the steps as kernel launches on a slot's stream
// (gpu_stage_kernels.cpp), the CPU executor as the kernels' CPU twins (cpu_stage_twins.cpp).
#pragma once
#include <span>

#include "common/image_types.hpp"
#include "device/batch_packing.hpp"

namespace vidpipe {

// Points in the stage the backends time: events on the GPU, host clock reads on the CPU.
enum class StagePoint { preprocessed, inferred, overlaid };

class GpuStageSteps {
 public:
  virtual ~GpuStageSteps() = default;
  virtual void narrow(const FrameRun& run) = 0;        // where the input is wider than 8-bit 4:2:0
  virtual void deinterlace(const FrameRun& run) = 0;   // where reader.deinterlace says so, in place
  virtual void turn_upright(const FrameRun& run) = 0;  // where the input's display matrix turns it
  virtual void to_bgr(const FrameRun& run) = 0;     // full-size BGR from the frame's YUV planes
  virtual void letterbox(const FrameRun& run) = 0;  // resized into the network's input
  virtual void normalise(int frames) = 0;           // planar RGB float, the whole batch
  virtual void detect(int frames) = 0;              // the network, one launch for the batch
  virtual void decode_boxes(const FrameRun& run) = 0;
  virtual void draw_boxes(const FrameRun& run) = 0;  // in place on the frame's YUV planes
  virtual void draw_hud(const FrameRun& run, const HudText& hud) = 0;
  // Into the output size (sink.width/height), where the run's input has one.
  virtual void scale_output(const FrameRun& run) = 0;
  virtual void reached(StagePoint point) = 0;
};

struct GpuStageSwitches {
  bool detect = true;      // a model is loaded
  bool draw_boxes = true;  // overlay.boxes
  bool draw_hud = true;    // overlay.hud
};

void run_gpu_stage(GpuStageSteps& steps, std::span<const FrameRun> runs, int frames, const GpuStageSwitches& on,
                   const HudLines& hud);

}  // namespace vidpipe
