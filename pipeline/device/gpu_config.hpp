// The gpu.* and overlay.* keys: the GPU stage's preprocessing, detector and overlay.
// Declared in gpu_config.cpp; the executors take these structs whole.
#pragma once
#include <array>
#include <string>

#include "common/image_types.hpp"
#include "infer/onnx_config.hpp"
#include "letterbox/letterbox.hpp"

namespace vidpipe {

template <class S>
class Keys;

struct PreprocessConfig {
  int width = 416;
  int height = 416;
  LetterboxAlign align = LetterboxAlign::top_left;
  std::array<double, 3> mean{117.001, 114.697, 97.404};
  double scale = 1.0 / 255.0;
};

struct GpuConfig {
  int device = 0;
  PreprocessConfig preprocess;
  bool inference = true;
  bool cuda_graphs = true;  // replay the detector's launches from a captured graph
  std::string model = "assets/models/tiny_face_detector";
  OnnxConfig onnx;  // gpu.onnx.*: where gpu.model is an .onnx file
  double score_threshold = 0.4;
  double iou_threshold = 0.4;
};

struct OverlayConfig {
  bool boxes = true;
  bool hud = true;
};

// The kernels' view of the preprocessing keys.
Normalisation normalisation_of(const PreprocessConfig& preprocess);

void declare_keys(Keys<GpuConfig>& keys);
void declare_keys(Keys<OverlayConfig>& keys);

}  // namespace vidpipe
