#include "device/gpu_config.hpp"

#include "config/keys.hpp"

namespace vidpipe {

Normalisation normalisation_of(const PreprocessConfig& p) {
  Normalisation n;
  for (int i = 0; i < 3; ++i) {
    n.mean[i] = static_cast<float>(p.mean[i]);
    n.scale[i] = static_cast<float>(p.scale);
  }
  return n;
}

void declare_keys(Keys<GpuConfig>& k) {
  k.integer("device", &GpuConfig::device, 0, 63, "CUDA device index.");
  Keys<PreprocessConfig> p = k.section("preprocess", &GpuConfig::preprocess);
  p.integer("width", &PreprocessConfig::width, 16, 4096,
            "the built-in detector's input width. With inference on it must equal the height and be a multiple "
            "of 32 (face-api uses 128..608; larger finds smaller faces). An ONNX model's input size is its own "
            "or gpu.onnx.width/height.");
  p.integer("height", &PreprocessConfig::height, 16, 4096, "network input height.");
  p.choice("align", &PreprocessConfig::align,
           {{"top_left", LetterboxAlign::top_left}, {"centre", LetterboxAlign::centre}},
           "where the letterboxed picture sits in the network input; `top_left` is what face-api's "
           "TinyFaceDetector was trained with.");
  p.triple("mean", &PreprocessConfig::mean, "per-channel mean (R, G, B) subtracted before scaling.");
  p.real("scale", &PreprocessConfig::scale, 1e-9, 1e9,
         "multiplier after the mean (1/255, as face-api 1.7 feeds TinyFaceDetector).");
  k.boolean("inference", &GpuConfig::inference,
            "run the detector (gpu.model) after preprocessing; `false` stops the GPU stage after normalisation "
            "(copies and preprocessing only).");
  k.boolean("cuda_graphs", &GpuConfig::cuda_graphs,
            "replay the detector's 18 kernel launches from a CUDA graph captured once per slot and batch size "
            "instead of launching them one by one: at batch 1 the launches are most of its time "
            "(docs/BENCHMARKS.md, issue 16). `false` shows what they cost.");
  k.text("model", &GpuConfig::model, "directory or .onnx file",
         "the detector: a folder holding face-api's `tiny_face_detector_model-weights_manifest.json` and its "
         "`.bin` (the built-in TinyFaceDetector, in the project's own kernels; scripts/setup.sh fetches them), "
         "or a user's `.onnx` model, run by ONNX Runtime as gpu.onnx says. Must exist when `gpu.inference` is on.");
  Keys<OnnxConfig> onnx = k.section("onnx", &GpuConfig::onnx);
  declare_keys(onnx);
  k.real("score_threshold", &GpuConfig::score_threshold, 0.01, 0.99,
         "keep boxes whose score (sigmoid of the network's logit) is above this. face-api's default is "
         "0.5; 0.4 also keeps close-ups the network scores just under it.");
  k.real("iou_threshold", &GpuConfig::iou_threshold, 0.01, 1.0,
         "non-maximum suppression: drop a box overlapping a better one by more than this IoU (face-api's "
         "value).");
}

void declare_keys(Keys<OverlayConfig>& k) {
  k.boolean("boxes", &OverlayConfig::boxes, "draw each face box and its score on the output frame.");
  k.boolean("hud", &OverlayConfig::hud,
            "draw the HUD (fps and copy-wait share of the last second) top-left on the output frame.");
}

}  // namespace vidpipe
