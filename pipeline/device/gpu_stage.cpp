#include "device/gpu_stage.hpp"

namespace vidpipe {

void run_gpu_stage(GpuStageSteps& steps, std::span<const FrameRun> runs, int frames, const GpuStageSwitches& on,
                   const HudLines& hud) {
  // Frames of one input share layout, letterbox and colour matrix: one launch per run.
  for (const FrameRun& run : runs) {
    steps.narrow(run);
    steps.deinterlace(run);
    steps.turn_upright(run);
    steps.to_bgr(run);
    steps.letterbox(run);
  }
  steps.normalise(frames);
  steps.reached(StagePoint::preprocessed);
  if (on.detect) {
    steps.detect(frames);
    for (const FrameRun& run : runs) steps.decode_boxes(run);
  }
  steps.reached(StagePoint::inferred);
  for (const FrameRun& run : runs) {
    if (on.detect && on.draw_boxes) steps.draw_boxes(run);
    if (!on.draw_hud) continue;
    for (const HudText& line : hud.line)
      if (line.length > 0) steps.draw_hud(run, line);
  }
  // After the overlay, so boxes and text are drawn once at the decoded size and scaled
  // with the picture; before the download, so only the output's bytes cross the link.
  for (const FrameRun& run : runs) steps.scale_output(run);
  steps.reached(StagePoint::overlaid);
}

}  // namespace vidpipe
