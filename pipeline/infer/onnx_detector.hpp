// A user's ONNX model as the GPU stage's detector: checked once when the run is assembled
// (OnnxSetup, before any output is opened), then run where the batch's tensor is, with its
// output decoded into each frame's DetectionList (OnnxDetector).
#pragma once
#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "common/image_types.hpp"
#include "device/gpu_config.hpp"
#include "infer/onnx_model.hpp"

namespace vidpipe {

struct OnnxSetup {
  OnnxConfig config;
  std::string path;
  ImageInput input;         // its size fixed: the model's own or gpu.onnx.width/height
  TensorInfo output;        // the one the decoder reads, as the model declares it
  std::size_t output_index = 0;  // among the model's float outputs
  int device = 0;
  float score_threshold = 0.5f, iou_threshold = 0.5f;
};

// Opens the model on the CPU provider and checks its input against gpu.onnx and the output
// against the decoder; throws InputError naming the path, the tensor, the shape found and the
// shape expected.
std::shared_ptr<const OnnxSetup> open_onnx_setup(const GpuConfig& gpu);

// The preprocessing's last step as the model wants its input.
Normalisation onnx_normalisation(const OnnxConfig& config);

class OnnxDetector {
 public:
  virtual ~OnnxDetector() = default;
  // `frames` images of the model's input at `tensor`: host memory for a detector made by
  // on_host, device memory for one made by on_stream.
  virtual void infer(float* tensor, int frames) = 0;
  // Frames first .. first+count-1 of the last infer, through their input's letterbox, into
  // lists[0 .. count-1] (where the tensor was).
  virtual void decode(int first, int count, const Letterbox& lb, DetectionList* lists) = 0;
  virtual std::string provider() const = 0;  // "cuda" or "cpu", for the log and the report
};

std::unique_ptr<OnnxDetector> make_host_onnx_detector(const OnnxSetup& setup);
// On a CUDA stream (cudaStreamLegacy for sync mode's). With gpu.onnx.provider auto and no CUDA
// provider, it runs on the CPU provider through host copies, and warns once saying why.
std::unique_ptr<OnnxDetector> make_stream_onnx_detector(const OnnxSetup& setup, cudaStream_t stream, int max_batch);

}  // namespace vidpipe
