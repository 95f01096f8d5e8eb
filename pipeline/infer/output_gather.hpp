// The outputs a decoder reads, laid out as its kernel takes them: frame after frame, each
// frame's outputs side by side in the order the decoder reads them. One output of a run of the
// whole batch is read where ONNX Runtime left it; several (BlazeFace's four heads), or the
// runs of a model whose batch is fixed at 1, are copied into one buffer (BlazeFace's are 60 KB
// a frame: the copies cost next to nothing beside the network).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vidpipe {

// One frame's floats in an output of `dims` (the batch first, none open).
std::size_t frame_floats(const std::vector<std::int64_t>& dims);

// The outputs of one run that the decoder reads: where each starts and one frame's floats of it.
struct RunOutputs {
  std::vector<const float*> data;
  std::vector<std::size_t> frame_floats;
  std::vector<std::int64_t> first_dims;  // the first one's dims as run
  std::size_t gathered_frame_floats() const;  // one frame's floats of them all
};

// `frames` frames of each output to dst (gathered_frame_floats() apart), queued on `stream`.
void gather_frames_on_device(const RunOutputs& outputs, int frames, float* dst, cudaStream_t stream);
void gather_frames_on_host(const RunOutputs& outputs, int frames, float* dst);

}  // namespace vidpipe
