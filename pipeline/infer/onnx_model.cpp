#include "infer/onnx_model.hpp"

#include <fmt/format.h>
#include <onnxruntime_cxx_api.h>

#include <filesystem>
#include <utility>

#include "base/errors.hpp"

namespace vidpipe {
namespace {

std::string type_name(ONNXTensorElementDataType type) {
  switch (type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: return "float";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16: return "float16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE: return "double";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8: return "uint8";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8: return "int8";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32: return "int32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: return "int64";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: return "bool";
    default: return fmt::format("element type {}", static_cast<int>(type));
  }
}

// One environment for the process, as ONNX Runtime asks; its own log only for errors (ours
// says what went wrong, with the model's path).
Ort::Env& shared_env() {
  static Ort::Env env(ORT_LOGGING_LEVEL_ERROR, "vidpipe");
  return env;
}

TensorInfo describe(const std::string& name, const Ort::TypeInfo& type) {
  TensorInfo info{name, {}, "not a tensor"};
  if (type.GetONNXType() != ONNX_TYPE_TENSOR) return info;
  const auto tensor = type.GetTensorTypeAndShapeInfo();
  info.dims = tensor.GetShape();
  for (std::int64_t& d : info.dims)
    if (d <= 0) d = -1;  // symbolic or unknown: open
  info.type = type_name(tensor.GetElementType());
  return info;
}

const char* layout_name(TensorLayout layout) { return layout == TensorLayout::nchw ? "nchw" : "nhwc"; }

// Where the layout puts channels, height and width in a 4-D image tensor.
struct Axes {
  int channels, height, width;
};
Axes axes_of(TensorLayout layout) { return layout == TensorLayout::nchw ? Axes{1, 2, 3} : Axes{3, 1, 2}; }

}  // namespace

std::string shape_text(const std::vector<std::int64_t>& dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", " : "") + (dims[i] < 0 ? std::string("?") : std::to_string(dims[i]));
  return text + "]";
}

struct OnnxModel::Runtime {
  Ort::Session session{nullptr};
  std::vector<std::string> output_names;
  int device = 0;
  std::vector<Ort::Value> device_outputs;  // the last run_on_device's, held until the next
};

OnnxModel::~OnnxModel() = default;

namespace {

// The image input the options name (or the only one), as the model declares it.
TensorInfo pick_input(const Ort::Session& session, const OnnxModelOptions& o) {
  Ort::AllocatorWithDefaultOptions allocator;
  std::vector<TensorInfo> inputs;
  for (std::size_t i = 0; i < session.GetInputCount(); ++i)
    inputs.push_back(describe(session.GetInputNameAllocated(i, allocator).get(), session.GetInputTypeInfo(i)));
  std::string names;
  for (const TensorInfo& t : inputs) names += (names.empty() ? "" : ", ") + t.name + " " + shape_text(t.dims);
  if (o.input_name.empty() && inputs.size() != 1)
    throw InputError(fmt::format("'{}': the model has {} inputs ({}): gpu.onnx.input names the image", o.path,
                                 inputs.size(), names));
  for (const TensorInfo& t : inputs)
    if (o.input_name.empty() || t.name == o.input_name) return t;
  throw InputError(fmt::format("'{}': gpu.onnx.input: no input '{}' (the model has {})", o.path, o.input_name, names));
}

ImageInput image_input(const TensorInfo& t, const OnnxModelOptions& o) {
  const std::string what = fmt::format("'{}': input '{}' is {} {}", o.path, t.name, t.type, shape_text(t.dims));
  if (t.type != "float") throw InputError(what + ": a float image tensor is needed");
  if (t.dims.size() != 4) throw InputError(what + ": a 4-D image tensor (N, C, H, W or N, H, W, C) is needed");
  const Axes axes = axes_of(o.layout);
  if (t.dims[axes.channels] != 3) {
    const TensorLayout other = o.layout == TensorLayout::nchw ? TensorLayout::nhwc : TensorLayout::nchw;
    const bool fits_other = t.dims[axes_of(other).channels] == 3;
    throw InputError(fmt::format("{}: with gpu.onnx.layout {} its channels are {}, not 3{}", what, layout_name(o.layout),
                                 t.dims[axes.channels] < 0 ? "open" : std::to_string(t.dims[axes.channels]),
                                 fits_other ? fmt::format(" (it reads as {}: set gpu.onnx.layout)", layout_name(other))
                                            : ""));
  }
  ImageInput in{t.name, o.layout, t.dims[0], t.dims[axes.height], t.dims[axes.width]};
  const bool open_size = in.height < 0 || in.width < 0;
  if (open_size && (o.width <= 0 || o.height <= 0))
    throw InputError(what + ": its size is open; set gpu.onnx.width and gpu.onnx.height");
  if (!open_size && o.width > 0 && o.height > 0 && (o.width != in.width || o.height != in.height))
    throw InputError(fmt::format("{}: it takes {}x{}, gpu.onnx.width and height say {}x{}", what, in.width, in.height,
                                 o.width, o.height));
  if (in.width < 0) in.width = o.width;
  if (in.height < 0) in.height = o.height;
  return in;
}

// The CUDA provider on the pipeline's stream: ONNX Runtime's kernels queue behind the
// preprocessing of the same batch and ahead of its decoding, so the streams still overlap.
void attach_cuda(Ort::SessionOptions& session_options, const OnnxModelOptions& o) {
  try {
    Ort::CUDAProviderOptions cuda;
    // HEURISTIC: cuDNN's exhaustive search runs again for every new input shape, and a batch
    // that is not full is one (a decoded 1080p ladder's batch-4 rung fell to half of batch 1's).
    cuda.Update({{"device_id", std::to_string(o.device)}, {"cudnn_conv_algo_search", "HEURISTIC"}});
    if (o.cuda_stream) cuda.UpdateWithValue("user_compute_stream", o.cuda_stream);
    session_options.AppendExecutionProvider_CUDA_V2(*cuda);
  } catch (const Ort::Exception& e) {
    throw OnnxProviderError(fmt::format("'{}': ONNX Runtime's CUDA provider did not load ({}); it needs "
                                        "libonnxruntime_providers_cuda.so beside libonnxruntime.so.1, cuDNN 9 "
                                        "and CUDA 13's cuBLAS on the library path (README)",
                                        o.path, e.what()));
  }
}

}  // namespace

OnnxModel::OnnxModel(const OnnxModelOptions& o) : path_(o.path), runtime_(std::make_unique<Runtime>()) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(o.path, ec))
    throw InputError(fmt::format("'{}': gpu.model: no such model file", o.path));
  Ort::SessionOptions session_options;
  if (o.threads > 0) session_options.SetIntraOpNumThreads(o.threads);
  runtime_->device = o.device;
  if (o.provider == OnnxProvider::cuda) attach_cuda(session_options, o);
  try {
    runtime_->session = Ort::Session(shared_env(), o.path.c_str(), session_options);
  } catch (const Ort::Exception& e) {
    throw InputError(fmt::format("'{}': not a model ONNX Runtime can load: {}", o.path, e.what()));
  }
  input_ = image_input(pick_input(runtime_->session, o), o);
  Ort::AllocatorWithDefaultOptions allocator;
  for (std::size_t i = 0; i < runtime_->session.GetOutputCount(); ++i) {
    outputs_.push_back(describe(runtime_->session.GetOutputNameAllocated(i, allocator).get(),
                                runtime_->session.GetOutputTypeInfo(i)));
    runtime_->output_names.push_back(outputs_.back().name);
  }
}

std::vector<std::int64_t> OnnxModel::input_dims(int batch) const {
  const Axes axes = axes_of(input_.layout);
  std::vector<std::int64_t> dims(4);
  dims[0] = batch;
  dims[axes.channels] = 3;
  dims[axes.height] = input_.height;
  dims[axes.width] = input_.width;
  return dims;
}

std::vector<HostTensor> OnnxModel::run(const float* input, int batch) {
  const std::vector<std::int64_t> dims = input_dims(batch);
  const std::size_t count = static_cast<std::size_t>(batch) * 3 * input_.height * input_.width;
  const Ort::MemoryInfo host = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
  // ONNX Runtime reads the caller's buffer in place; it never writes an input.
  Ort::Value tensor = Ort::Value::CreateTensor<float>(host, const_cast<float*>(input), count, dims.data(), dims.size());
  const char* input_name = input_.name.c_str();
  std::vector<const char*> output_names;
  for (const std::string& name : runtime_->output_names) output_names.push_back(name.c_str());
  std::vector<Ort::Value> results;
  try {
    results = runtime_->session.Run(Ort::RunOptions{nullptr}, &input_name, &tensor, 1, output_names.data(),
                                    output_names.size());
  } catch (const Ort::Exception& e) {
    throw InputError(fmt::format("'{}': the model failed on a batch of {} at {}x{}: {}", path_, batch, input_.width,
                                 input_.height, e.what()));
  }
  std::vector<HostTensor> out;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto shape = results[i].GetTensorTypeAndShapeInfo();
    if (shape.GetElementType() != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) continue;
    const float* values = results[i].GetTensorData<float>();
    out.push_back({{outputs_[i].name, shape.GetShape(), "float"},
                   std::vector<float>(values, values + shape.GetElementCount())});
  }
  return out;
}

std::vector<DeviceTensor> OnnxModel::run_on_device(float* input, int batch) {
  const std::vector<std::int64_t> dims = input_dims(batch);
  const std::size_t count = static_cast<std::size_t>(batch) * 3 * input_.height * input_.width;
  const Ort::MemoryInfo cuda("Cuda", OrtDeviceAllocator, runtime_->device, OrtMemTypeDefault);
  Ort::Value tensor = Ort::Value::CreateTensor<float>(cuda, input, count, dims.data(), dims.size());
  Ort::IoBinding binding(runtime_->session);
  binding.BindInput(input_.name.c_str(), tensor);
  for (const std::string& name : runtime_->output_names) binding.BindOutput(name.c_str(), cuda);
  Ort::RunOptions options;
  // The decoder's kernels follow on the same stream: nothing for the host to wait for here.
  options.AddConfigEntry("disable_synchronize_execution_providers", "1");
  try {
    runtime_->session.Run(options, binding);
  } catch (const Ort::Exception& e) {
    throw InputError(fmt::format("'{}': the model failed on a batch of {} at {}x{}: {}", path_, batch, input_.width,
                                 input_.height, e.what()));
  }
  runtime_->device_outputs = binding.GetOutputValues();
  std::vector<DeviceTensor> out;
  for (std::size_t i = 0; i < runtime_->device_outputs.size(); ++i) {
    const Ort::Value& v = runtime_->device_outputs[i];
    const auto shape = v.GetTensorTypeAndShapeInfo();
    if (shape.GetElementType() != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) continue;
    out.push_back({{outputs_[i].name, shape.GetShape(), "float"}, v.GetTensorData<float>()});
  }
  return out;
}

}  // namespace vidpipe
