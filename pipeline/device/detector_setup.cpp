#include "device/detector_setup.hpp"

#include "device/face_model.hpp"
#include "infer/onnx_setup.hpp"

namespace vidpipe {

void attach_detector(ExecutorOptions& o, const GpuConfig& gpu) {
  if (!gpu.inference) return;
  if (!is_onnx_model(gpu.model)) {
    o.model = std::make_shared<const TinyFaceWeights>(load_tiny_face_model(gpu.model));
    return;
  }
  o.onnx = open_onnx_setup(gpu);
  o.gpu.preprocess.width = static_cast<int>(o.onnx->input.width);
  o.gpu.preprocess.height = static_cast<int>(o.onnx->input.height);
  if (gpu.onnx.fit == ImageFit::stretch) o.gpu.preprocess.align = LetterboxAlign::stretch;
}

Normalisation normalisation_for(const ExecutorOptions& o) {
  return o.onnx ? onnx_normalisation(o.onnx->config) : normalisation_of(o.gpu.preprocess);
}

}  // namespace vidpipe
