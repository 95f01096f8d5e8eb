// A user's ONNX model as the GPU stage's detector (checked first by open_onnx_setup): run where
// the batch's tensor is, its output decoded into each frame's DetectionList.
#pragma once
#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "common/image_types.hpp"
#include "infer/onnx_setup.hpp"

namespace vidpipe {

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
