// A user's ONNX model through ONNX Runtime (issue 35): opened once, its image input and
// outputs described, and checked against what the GPU stage can feed it before anything
// runs, so a model that does not fit fails at the start with its path and the tensor named,
// never after an output file was begun.
//
// ONNX Runtime rather than code of our own: it runs any opset on the CPU and, with its CUDA
// provider, on the pipeline's streams.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "infer/onnx_config.hpp"

namespace vidpipe {

// One tensor as the model declares it: -1 for a dimension it leaves open.
struct TensorInfo {
  std::string name;
  std::vector<std::int64_t> dims;
  std::string type;  // ONNX's element type name: float, uint8, int64, ...
};

// The image input: a 4-D float tensor with three colour channels where `layout` puts them.
struct ImageInput {
  std::string name;
  TensorLayout layout = TensorLayout::nchw;
  std::int64_t batch = -1;   // -1: any batch (copy.batch_size frames go in one run)
  std::int64_t height = -1;  // -1: the model takes any height (the config gives one)
  std::int64_t width = -1;
};

struct OnnxModelOptions {
  std::string path;
  std::string input_name;  // "": the model's only input
  TensorLayout layout = TensorLayout::nchw;
  int width = 0, height = 0;  // for a model of open size; 0: the model's own
  int threads = 0;            // CPU provider's intra-op threads; 0: ONNX Runtime's choice
  // cuda: the session runs on `device`, queueing its kernels on `cuda_stream` (a
  // cudaStream_t; null: CUDA's default stream), and reads and writes device memory.
  OnnxProvider provider = OnnxProvider::cpu;
  int device = 0;
  void* cuda_stream = nullptr;
};

// The CUDA provider could not be attached (its library, cuDNN or a GPU missing): what
// `gpu.onnx.provider: auto` falls back to the CPU provider on.
struct OnnxProviderError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An output a run left in device memory: valid until the model's next run.
struct DeviceTensor {
  TensorInfo info;  // its dims as run: none open
  const float* data = nullptr;
};

// A float tensor come back from a run, on the host.
struct HostTensor {
  TensorInfo info;  // its dims as run: none open
  std::vector<float> values;
};

class OnnxModel {
 public:
  // Throws InputError naming the path (and the tensor where it is one) when the file is
  // missing or not ONNX, or its image input does not fit the options.
  explicit OnnxModel(const OnnxModelOptions& options);
  ~OnnxModel();
  OnnxModel(const OnnxModel&) = delete;
  OnnxModel& operator=(const OnnxModel&) = delete;

  const ImageInput& input() const { return input_; }
  // The size frames are letterboxed to: the model's own, or the options' for an open one.
  int width() const { return static_cast<int>(input_.width); }
  int height() const { return static_cast<int>(input_.height); }
  const std::vector<TensorInfo>& outputs() const { return outputs_; }

  // `batch` frames of the input tensor (layout(), width() x height(), 3 channels), in host
  // memory; every float output, in host memory.
  std::vector<HostTensor> run(const float* input, int batch);
  // The same with the input and every float output in device memory (the CUDA provider,
  // through an IoBinding): queued on the session's stream, not waited for.
  std::vector<DeviceTensor> run_on_device(float* input, int batch);

 private:
  std::vector<std::int64_t> input_dims(int batch) const;
  struct Runtime;  // ONNX Runtime's environment and session: its headers stay in the .cpp
  std::string path_;
  std::unique_ptr<Runtime> runtime_;
  ImageInput input_;
  std::vector<TensorInfo> outputs_;
};

// "[1, 3, ?, ?]": how a shape reads in messages.
std::string shape_text(const std::vector<std::int64_t>& dims);

}  // namespace vidpipe
