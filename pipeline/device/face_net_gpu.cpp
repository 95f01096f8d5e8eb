#include "device/face_net_gpu.hpp"

#include <algorithm>

#include "tiny_face/tiny_face_layers.cuh"

namespace vidpipe {
namespace {

cuda::DeviceBuffer upload(const std::vector<float>& host) {
  cuda::DeviceBuffer d(host.size() * sizeof(float));
  CUDA_CHECK(cudaMemcpy(d.as(), host.data(), d.bytes(), cudaMemcpyHostToDevice));
  return d;
}

}  // namespace

TinyFaceNetGpu::TinyFaceNetGpu(const TinyFaceWeights& w, int input_size)
    : shape_(input_size),
      conv0_filters_(upload(w.conv0_filters)),
      conv0_bias_(upload(w.conv0_bias)),
      conv8_filters_(upload(w.conv8_filters)),
      conv8_bias_(upload(w.conv8_bias)) {
  for (const auto& s : w.separable) {
    Layer l;
    l.depthwise = upload(s.depthwise);
    l.pointwise = upload(s.pointwise);
    l.bias = upload(s.bias);
    l.in = s.in;
    l.out = s.out;
    layers_.push_back(std::move(l));
  }
}

TinyFaceNetGpu::Scratch TinyFaceNetGpu::make_scratch(int max_batch) const {
  // The largest activation is conv0's output; every later one is smaller.
  const std::size_t biggest = std::size_t(TinyFaceWeights::channels[1]) * shape_.conv0 * shape_.conv0;
  std::size_t pooled = 0;
  for (int k = 0; k < 6; ++k)
    pooled = std::max(pooled, std::size_t(TinyFaceWeights::channels[std::min(k + 2, 6)]) * shape_.pooled[k] * shape_.pooled[k]);
  const std::size_t per_image = std::max(biggest, pooled) * sizeof(float);
  Scratch s;
  s.batch = max_batch;
  s.ping = cuda::DeviceBuffer(per_image * max_batch);
  s.pong = cuda::DeviceBuffer(per_image * max_batch);
  s.depthwise = cuda::DeviceBuffer(per_image * max_batch);
  s.output = cuda::DeviceBuffer(std::size_t(TinyFaceWeights::outputs) * cells() * cells() * sizeof(float) * max_batch);
  return s;
}

const float* TinyFaceNetGpu::run(const float* input, int batch, Scratch& s, cudaStream_t stream) const {
  const auto& ch = TinyFaceWeights::channels;
  float* a = s.ping.as<float>();
  float* b = s.pong.as<float>();
  launch_conv3x3(input, batch, ch[0], shape_.input, shape_.input, conv0_filters_.as<float>(), conv0_bias_.as<float>(),
                 ch[1], 0, true, a, stream);
  int size = shape_.conv0;
  for (int k = 0; k < 6; ++k) {
    const int stride = k == 5 ? 1 : 2;
    launch_maxpool2x2(a, batch, ch[k + 1], size, size, stride, b, stream);
    size = shape_.pooled[k];
    if (k == 5) break;
    const Layer& l = layers_[k];
    launch_depthwise3x3(b, batch, l.in, size, size, l.depthwise.as<float>(), s.depthwise.as<float>(), stream);
    launch_pointwise(s.depthwise.as<float>(), batch, l.in, size * size, l.pointwise.as<float>(), l.bias.as<float>(),
                     l.out, true, a, stream);
  }
  launch_pointwise(b, batch, ch[6], size * size, conv8_filters_.as<float>(), conv8_bias_.as<float>(),
                   TinyFaceWeights::outputs, false, s.output.as<float>(), stream);
  return s.output.as<float>();
}

const float* TinyFaceNetGpu::run_graphed(const float* input, int batch, Scratch& s, cudaStream_t stream) const {
  auto graph = s.graphs.find({input, batch});
  if (graph == s.graphs.end()) {
    if (!s.capture_stream) s.capture_stream = std::make_unique<cuda::Stream>();
    const cudaStream_t capture = s.capture_stream->get();
    graph = s.graphs.emplace(std::pair{input, batch}, cuda::capture_graph(capture, [&] { run(input, batch, s, capture); }))
                .first;
  }
  graph->second.launch(stream);
  return s.output.as<float>();
}

}  // namespace vidpipe
