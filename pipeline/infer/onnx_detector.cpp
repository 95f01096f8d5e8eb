#include "infer/onnx_detector.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

#include "base/errors.hpp"
#include "decode/blazeface_boxes.cuh"
#include "decode/blazeface_boxes_ref.hpp"
#include "decode/heatmap_boxes.cuh"
#include "decode/heatmap_boxes_ref.hpp"
#include "decode/tensor_stats.cuh"
#include "decode/tensor_stats_ref.hpp"
#include "decode/yolo_boxes.cuh"
#include "decode/yolo_boxes_ref.hpp"
#include "infer/output_gather.hpp"
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

HeatmapDecode heatmap_params(const OnnxSetup& s) {
  HeatmapDecode p;
  p.binarize = static_cast<float>(s.config.binarize);
  p.score_threshold = s.score_threshold;
  p.unclip = static_cast<float>(s.config.unclip);
  return p;
}

BlazeFaceDecode blazeface_params(const OnnxSetup& s) {
  BlazeFaceDecode p;
  p.score_threshold = s.score_threshold;
  p.iou_threshold = s.iou_threshold;
  p.cells = s.blazeface_cells;
  p.input_width = static_cast<int>(s.input.width);
  p.input_height = static_cast<int>(s.input.height);
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
      case OutputDecoder::blazeface:
        lists[i] = reference::decode_blazeface(frame, lb, blazeface_params(s));
        break;
      case OutputDecoder::raw:
        lists[i] = reference::tensor_stats(frame, shape.per_frame);
        break;
    }
  }
}

// The decoder's outputs of `outputs` (a run's float outputs).
template <class Tensor, class Data>
RunOutputs picked(const OnnxSetup& s, const std::vector<Tensor>& outputs, Data data) {
  RunOutputs o;
  for (const std::size_t index : s.output_indices) {
    const Tensor& t = outputs.at(index);
    o.data.push_back(data(t));
    o.frame_floats.push_back(frame_floats(t.info.dims));
  }
  o.first_dims = outputs.at(s.output_indices.front()).info.dims;
  return o;
}

// A batch of `frames` in as many runs as the model takes. `run(first, n)` runs frames
// first..first+n-1 and gives the decoder's outputs; `gather(outputs, n, dst)` copies n frames'
// of them to dst, in the buffer `gathered(floats)` gives. Where the batch's outputs are read;
// `shape` says how.
template <class Run, class Gather, class Buffer>
const float* run_batch(const OnnxSetup& s, int frames, Run run, Gather gather, OutputShape& shape, Buffer gathered) {
  const int per_run = s.run_frames() > 0 ? s.run_frames() : frames;
  float* batch = nullptr;
  for (int first = 0; first < frames; first += per_run) {
    const int n = std::min(per_run, frames - first);
    const RunOutputs o = run(first, n);
    shape = output_shape(o.first_dims, s.config.decoder);
    shape.per_frame = o.gathered_frame_floats();
    if (n == frames && o.data.size() == 1) return o.data.front();  // read in place
    if (!batch) batch = gathered(frames * shape.per_frame);
    gather(o, n, batch + first * shape.per_frame);
  }
  return batch;
}

// Host tensors in and out (the CPU executor; or the plain loop, gpu.onnx.io host, on either provider).
class HostDetector : public OnnxDetector {
 public:
  explicit HostDetector(const OnnxSetup& s, OnnxProvider provider = OnnxProvider::cpu)
      : s_(s), provider_(provider), model_(model_options(s, provider, nullptr)) {}

  void infer(float* tensor, int frames) override {
    auto run = [&](int first, int n) {
      outputs_ = model_.run(tensor + first * s_.input_floats(), n);
      return picked(s_, outputs_, [](const HostTensor& t) { return t.values.data(); });
    };
    auto gather = [](const RunOutputs& o, int n, float* dst) { gather_frames_on_host(o, n, dst); };
    out_ = run_batch(s_, frames, run, gather, shape_, [&](std::size_t floats) {
      gathered_.resize(floats);
      return gathered_.data();
    });
  }
  void decode(int first, int count, const Letterbox& lb, DetectionList* lists) override {
    decode_on_host(s_, out_, shape_, first, count, lb, lists);
  }
  std::string provider() const override { return provider_ == OnnxProvider::cuda ? "cuda" : "cpu"; }

 protected:
  const OnnxSetup& s_;
  OnnxProvider provider_;
  OnnxModel model_;
  std::vector<HostTensor> outputs_;  // the last run's
  std::vector<float> gathered_;
  const float* out_ = nullptr;  // the batch's outputs, in outputs_ or gathered_
  OutputShape shape_;
};

// The CUDA provider on the slot's stream: input, output and boxes stay in device memory.
class StreamDetector final : public OnnxDetector {
 public:
  StreamDetector(const OnnxSetup& s, cudaStream_t stream)
      : s_(s), stream_(stream), model_(model_options(s, OnnxProvider::cuda, stream)) {}

  void infer(float* tensor, int frames) override {
    auto run = [&](int first, int n) {
      return picked(s_, model_.run_on_device(tensor + first * s_.input_floats(), n),
                    [](const DeviceTensor& t) { return t.data; });
    };
    auto gather = [&](const RunOutputs& o, int n, float* dst) {
      gather_frames_on_device(o, n, dst, stream_);
    };
    out_ = run_batch(s_, frames, run, gather, shape_, [&](std::size_t floats) {
      if (floats * sizeof(float) > gathered_.bytes()) gathered_ = cuda::DeviceBuffer(floats * sizeof(float));
      return gathered_.as<float>();
    });
  }

  void decode(int first, int count, const Letterbox& lb, DetectionList* lists) override {
    const float* out = out_ + first * shape_.per_frame;
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
      case OutputDecoder::blazeface:
        launch_decode_blazeface(out, count, lb, blazeface_params(s_), lists, stream_);
        break;
      case OutputDecoder::raw:
        launch_tensor_stats(out, count, shape_.per_frame, lists, stream_);
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
  const float* out_ = nullptr;  // the batch's outputs, where the last run left them or gathered_
  OutputShape shape_;
  cuda::DeviceBuffer gathered_, labels_, region_of_, regions_, counts_;
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
