// TinyFaceDetector on the GPU: weights uploaded once, scratch buffers per slot (slots
// on different streams run the network at the same time), layers queued on a stream.
#pragma once
#include <cuda_runtime_api.h>

#include "memory/cuda_raii.hpp"
#include "tiny_face/tiny_face_net.hpp"

namespace vidpipe {

class TinyFaceNetGpu {
 public:
  TinyFaceNetGpu(const TinyFaceWeights& weights, int input_size);

  struct Scratch {
    cuda::DeviceBuffer ping, pong, depthwise, output;
    int batch = 0;
  };
  Scratch make_scratch(int max_batch) const;

  // input: [batch][3][size][size] on the device. Returns scratch.output: [batch][25][cells][cells].
  const float* run(const float* input, int batch, Scratch& scratch, cudaStream_t stream) const;
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
