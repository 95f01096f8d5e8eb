// TinyFaceDetector on the GPU: weights uploaded once, scratch buffers per slot (slots
// on different streams run the network at the same time), layers queued on a stream.
#pragma once
#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <utility>

#include "memory/cuda_raii.hpp"
#include "tiny_face/tiny_face_net.hpp"

namespace vidpipe {

class TinyFaceNetGpu {
 public:
  TinyFaceNetGpu(const TinyFaceWeights& weights, int input_size);

  struct Scratch {
    cuda::DeviceBuffer ping, pong, depthwise, output;
    int batch = 0;
    std::map<std::pair<const float*, int>, cuda::GraphExec> graphs;  // by input and batch
    // Graphs are captured here: sync mode queues on the legacy stream, which cannot capture.
    std::unique_ptr<cuda::Stream> capture_stream;
  };
  Scratch make_scratch(int max_batch) const;

  // input: [batch][3][size][size] on the device. Returns scratch.output: [batch][25][cells][cells].
  const float* run(const float* input, int batch, Scratch& scratch, cudaStream_t stream) const;
  // The same, its 18 launches replayed from a CUDA graph captured the first time this input
  // buffer and batch come (gpu.cuda_graphs): at batch 1 the launches, not the arithmetic,
  // are most of the network's time.
  const float* run_graphed(const float* input, int batch, Scratch& scratch, cudaStream_t stream) const;
  int cells() const { return shape_.cells(); }

 private:
  struct Layer {
    cuda::DeviceBuffer depthwise, pointwise, bias;
    int in = 0, out = 0;
  };
  TinyFaceShape shape_;
  cuda::DeviceBuffer conv0_filters_, conv0_bias_, conv8_filters_, conv8_bias_;
  std::vector<Layer> layers_;
};

}  // namespace vidpipe
