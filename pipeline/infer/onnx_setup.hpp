// A user's ONNX model checked once when the run is assembled, before any output is opened:
// its image input against gpu.onnx, the outputs its decoder reads found and their shapes
// checked. What every detector of the run (one a stream) is then made from.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "common/image_types.hpp"
#include "device/gpu_config.hpp"
#include "infer/onnx_model.hpp"

namespace vidpipe {

struct OnnxSetup {
  OnnxConfig config;
  std::string path;
  ImageInput input;  // its size fixed: the model's own or gpu.onnx.width/height
  // The outputs the decoder reads, in the order it reads them (BlazeFace's scores, then its
  // boxes), as the model declares them, and their places among the model's float outputs.
  std::vector<TensorInfo> outputs;
  std::vector<std::size_t> output_indices;
  int blazeface_cells = 0;  // blazeface: the first anchor grid's side
  int device = 0;
  float score_threshold = 0.5f, iou_threshold = 0.5f;

  // Frames one run of the model takes: 1 where its batch is fixed at 1 (a batch is run frame
  // by frame), else 0 (the whole batch).
  int run_frames() const { return input.batch == 1 ? 1 : 0; }
  std::size_t input_floats() const { return 3 * static_cast<std::size_t>(input.width) * input.height; }
};

// Opens the model on the CPU provider and checks it; throws InputError naming the path, the
// tensor, the shape found and the shape expected.
std::shared_ptr<const OnnxSetup> open_onnx_setup(const GpuConfig& gpu);

// The preprocessing's last step as the model wants its input.
Normalisation onnx_normalisation(const OnnxConfig& config);

}  // namespace vidpipe
