#include "infer/output_gather.hpp"

#include <algorithm>
#include <numeric>

#include "common/cuda_check.hpp"

namespace vidpipe {

std::size_t frame_floats(const std::vector<std::int64_t>& dims) {
  std::size_t floats = 1;
  for (std::size_t i = 1; i < dims.size(); ++i) floats *= static_cast<std::size_t>(dims[i]);
  return floats;
}

std::size_t RunOutputs::gathered_frame_floats() const {
  return std::accumulate(frame_floats.begin(), frame_floats.end(), std::size_t{0});
}

void gather_frames_on_device(const RunOutputs& o, int frames, float* dst, cudaStream_t stream) {
  const std::size_t dst_frame_floats = o.gathered_frame_floats();
  std::size_t column = 0;
  for (std::size_t k = 0; k < o.data.size(); ++k) {
    const std::size_t row = o.frame_floats[k] * sizeof(float);
    CUDA_CHECK(cudaMemcpy2DAsync(dst + column, dst_frame_floats * sizeof(float), o.data[k], row, row, frames,
                                 cudaMemcpyDeviceToDevice, stream));
    column += o.frame_floats[k];
  }
}

void gather_frames_on_host(const RunOutputs& o, int frames, float* dst) {
  const std::size_t dst_frame_floats = o.gathered_frame_floats();
  std::size_t column = 0;
  for (std::size_t k = 0; k < o.data.size(); ++k) {
    for (int f = 0; f < frames; ++f)
      std::copy_n(o.data[k] + f * o.frame_floats[k], o.frame_floats[k], dst + f * dst_frame_floats + column);
    column += o.frame_floats[k];
  }
}

}  // namespace vidpipe
