#include "infer/onnx_detector.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <mutex>

#include "base/errors.hpp"
#include "decode/heatmap_boxes.cuh"
#include "decode/heatmap_boxes_ref.hpp"
#include "decode/yolo_boxes.cuh"
#include "decode/yolo_boxes_ref.hpp"
#include "infer/output_shape.hpp"
#include "memory/cuda_raii.hpp"
#include "tiny_face/tiny_face_layers.cuh"
#include "tiny_face/tiny_face_layers_ref.hpp"

namespace vidpipe {

namespace {

OnnxModelOptions model_options(const OnnxSetup& s, OnnxProvider provider, cudaStream_t stream) {
  OnnxModelOptions o;
  o.path = s.path;
  o.input_name = s.input.name;
  o.layout = s.config.layout;
  o.width = static_cast<int>(s.input.width);
  o.height = static_cast<int>(s.input.height);
  o.threads = s.config.threads;
  o.provider = provider;
  o.device = s.device;
  o.cuda_stream = stream;
  return o;
}

// The float output the decoder reads, by name (or the first).
std::size_t pick_output(const OnnxModel& model, const std::string& path, const OnnxConfig& c) {
  std::size_t index = 0;
  std::string names;
  for (const TensorInfo& t : model.outputs()) {
    if (t.type != "float") continue;
    if (c.output.empty() || t.name == c.output) return index;
    names += (names.empty() ? "" : ", ") + t.name;
    ++index;
  }
  throw InputError(c.output.empty() ? fmt::format("'{}': the model has no float output to decode", path)
                                    : fmt::format("'{}': gpu.onnx.output: no float output '{}' (the model has {})",
                                                  path, c.output, names));
}

HeatmapDecode heatmap_params(const OnnxSetup& s) {
  HeatmapDecode p;
  p.binarize = static_cast<float>(s.config.binarize);
  p.score_threshold = s.score_threshold;
  p.unclip = static_cast<float>(s.config.unclip);
  return p;
}

BoxesDecode boxes_params(const OnnxSetup& s, const OutputShape& shape) {
  BoxesDecode p;
  p.score_threshold = s.score_threshold;
  p.iou_threshold = s.iou_threshold;
  p.objectness = s.config.objectness;
  p.anchors_last = shape.anchors_last;
  return p;
}

// Each frame's boxes from its output on the host (the decoders' CPU twins).
void decode_on_host(const OnnxSetup& s, const float* out, const OutputShape& shape, int first, int count,
                    const Letterbox& lb, DetectionList* lists) {
  for (int i = 0; i < count; ++i) {
    const float* frame = out + (first + i) * shape.per_frame;
    switch (s.config.decoder) {
      case OutputDecoder::heatmap:
        lists[i] = reference::decode_heatmap(frame, shape.width, shape.height,
                                             letterbox_on_map(lb, shape.width, shape.height), heatmap_params(s));
        break;
      case OutputDecoder::boxes:
        lists[i] = reference::decode_yolo(frame, shape.fields, shape.anchors, lb, boxes_params(s, shape));
        break;
      case OutputDecoder::tiny_face:
        lists[i] = reference::decode_faces(frame, shape.width, lb, s.score_threshold, s.iou_threshold);
        break;
    }
  }
}

}  // namespace

std::shared_ptr<const OnnxSetup> open_onnx_setup(const GpuConfig& gpu) {
  auto s = std::make_shared<OnnxSetup>();
  s->config = gpu.onnx;
  s->path = gpu.model;
  s->device = gpu.device;
  s->score_threshold = static_cast<float>(gpu.score_threshold);
  s->iou_threshold = static_cast<float>(gpu.iou_threshold);
  OnnxModelOptions o;
  o.path = gpu.model;
  o.input_name = gpu.onnx.input;
  o.layout = gpu.onnx.layout;
  o.width = gpu.onnx.width;
  o.height = gpu.onnx.height;
  const OnnxModel model(o);
  s->input = model.input();
  s->output_index = pick_output(model, gpu.model, gpu.onnx);
  std::size_t index = 0;
  for (const TensorInfo& t : model.outputs())
    if (t.type == "float" && index++ == s->output_index) s->output = t;
  if (const std::string expected = expected_output(s->output.dims, gpu.onnx); !expected.empty())
    throw InputError(fmt::format("'{}': output '{}' is {}; gpu.onnx.decoder {} reads {}", gpu.model, s->output.name,
                                 shape_text(s->output.dims),
                                 gpu.onnx.decoder == OutputDecoder::boxes     ? "boxes"
                                 : gpu.onnx.decoder == OutputDecoder::heatmap ? "heatmap"
                                                                              : "tiny_face",
                                 expected));
  return s;
}

Normalisation onnx_normalisation(const OnnxConfig& c) {
  Normalisation n;
  n.bgr = c.channels == ChannelOrder::bgr;
  n.nhwc = c.layout == TensorLayout::nhwc;
  // (pixel * scale - mean) / std == (pixel - mean / scale) * (scale / std)
  for (int i = 0; i < 3; ++i) {
    n.mean[i] = static_cast<float>(c.mean[i] / c.scale);
    n.scale[i] = static_cast<float>(c.scale / c.std[i]);
  }
  return n;
}

namespace {

// Host tensors in and out (the CPU executor; or the plain loop, gpu.onnx.io host, on either provider).
class HostDetector : public OnnxDetector {
 public:
  explicit HostDetector(const OnnxSetup& s, OnnxProvider provider = OnnxProvider::cpu)
      : s_(s), provider_(provider), model_(model_options(s, provider, nullptr)) {}

  void infer(float* tensor, int frames) override {
    auto outputs = model_.run(tensor, frames);
    output_ = std::move(outputs.at(s_.output_index));
    shape_ = output_shape(output_.info.dims, s_.config.decoder);
  }
  void decode(int first, int count, const Letterbox& lb, DetectionList* lists) override {
    decode_on_host(s_, output_.values.data(), shape_, first, count, lb, lists);
  }
  std::string provider() const override { return provider_ == OnnxProvider::cuda ? "cuda" : "cpu"; }

 protected:
  const OnnxSetup& s_;
  OnnxProvider provider_;
  OnnxModel model_;
  HostTensor output_;
  OutputShape shape_;
};

// The CUDA provider on the slot's stream: input, output and boxes stay in device memory.
class StreamDetector final : public OnnxDetector {
 public:
  StreamDetector(const OnnxSetup& s, cudaStream_t stream)
      : s_(s), stream_(stream), model_(model_options(s, OnnxProvider::cuda, stream)) {}

  void infer(float* tensor, int frames) override {
    output_ = model_.run_on_device(tensor, frames).at(s_.output_index);
    shape_ = output_shape(output_.info.dims, s_.config.decoder);
  }

  void decode(int first, int count, const Letterbox& lb, DetectionList* lists) override {
    const float* out = output_.data + first * shape_.per_frame;
    switch (s_.config.decoder) {
      case OutputDecoder::heatmap:
        launch_decode_heatmap(out, count, shape_.width, shape_.height, letterbox_on_map(lb, shape_.width, shape_.height),
                              heatmap_params(s_), heatmap_scratch(count), lists, stream_);
        break;
      case OutputDecoder::boxes:
        launch_decode_yolo(out, count, shape_.fields, shape_.anchors, lb, boxes_params(s_, shape_), lists, stream_);
        break;
      case OutputDecoder::tiny_face:
        launch_decode_faces(out, count, shape_.width, lb, s_.score_threshold, s_.iou_threshold, lists, stream_);
        break;
    }
  }
  std::string provider() const override { return "cuda"; }

 private:
  // Grown to the largest run of frames seen; the first batch pays the allocation.
  HeatmapScratchView heatmap_scratch(int frames) {
    const std::size_t pixels = static_cast<std::size_t>(frames) * shape_.width * shape_.height;
    if (pixels * sizeof(int) > labels_.bytes() || frames * sizeof(int) > counts_.bytes()) {
      labels_ = cuda::DeviceBuffer(pixels * sizeof(int));
      region_of_ = cuda::DeviceBuffer(pixels * sizeof(int));
      regions_ = cuda::DeviceBuffer(frames * heatmap_max_regions * heatmap_region_bytes());
      counts_ = cuda::DeviceBuffer(frames * sizeof(int));
    }
    return {labels_.as<int>(), region_of_.as<int>(), regions_.as(), counts_.as<int>()};
  }

  const OnnxSetup& s_;
  cudaStream_t stream_;
  OnnxModel model_;
  DeviceTensor output_;
  OutputShape shape_;
  cuda::DeviceBuffer labels_, region_of_, regions_, counts_;
};

// The GPU executor's tensor through host memory: the plain loop (gpu.onnx.io host, on the
// CUDA provider's own stream), or the CPU provider where gpu.onnx.provider auto found no CUDA
// provider (slowly; the warning says why).
class StagedDetector final : public HostDetector {
 public:
  StagedDetector(const OnnxSetup& s, OnnxProvider provider, cudaStream_t stream, int max_batch)
      : HostDetector(s, provider), stream_(stream), staged_lists_(max_batch) {}

  void infer(float* tensor, int frames) override {
    staged_.resize(static_cast<std::size_t>(frames) * 3 * s_.input.width * s_.input.height);
    CUDA_CHECK(cudaMemcpyAsync(staged_.data(), tensor, staged_.size() * sizeof(float), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    HostDetector::infer(staged_.data(), frames);
  }
  void decode(int first, int count, const Letterbox& lb, DetectionList* lists) override {
    // The host lists must outlive the copy: the stream is waited on before the next infer.
    DetectionList* host = staged_lists_.data() + first;
    HostDetector::decode(first, count, lb, host);
    CUDA_CHECK(cudaMemcpyAsync(lists, host, count * sizeof(DetectionList), cudaMemcpyHostToDevice, stream_));
  }
  std::string provider() const override { return HostDetector::provider() + " (tensors through host memory)"; }

 private:
  cudaStream_t stream_;
  std::vector<float> staged_;
  std::vector<DetectionList> staged_lists_;
};

}  // namespace

std::unique_ptr<OnnxDetector> make_host_onnx_detector(const OnnxSetup& setup) {
  return std::make_unique<HostDetector>(setup);
}

std::unique_ptr<OnnxDetector> make_stream_onnx_detector(const OnnxSetup& setup, cudaStream_t stream, int max_batch) {
  const bool host_io = setup.config.io == OnnxIo::host;
  if (setup.config.provider == OnnxProvider::cpu)
    return std::make_unique<StagedDetector>(setup, OnnxProvider::cpu, stream, max_batch);
  try {
    if (host_io) return std::make_unique<StagedDetector>(setup, OnnxProvider::cuda, stream, max_batch);
    return std::make_unique<StreamDetector>(setup, stream);
  } catch (const OnnxProviderError& e) {
    if (setup.config.provider == OnnxProvider::cuda) throw InputError(e.what());
    static std::once_flag warned;
    std::call_once(warned, [&] { spdlog::warn("{}: gpu.onnx.provider auto runs it on the CPU provider", e.what()); });
    return std::make_unique<StagedDetector>(setup, OnnxProvider::cpu, stream, max_batch);
  }
}

}  // namespace vidpipe
