#include "common/cuda_check.hpp"
#include "normalise/normalise.cuh"

namespace vidpipe {
namespace {

__global__ void normalise_kernel(const std::uint8_t* src, int pixels, Normalisation norm,
                                 float* dst) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  const std::uint8_t* in = src + (static_cast<std::size_t>(blockIdx.y) * pixels + i) * 3;
  float* out = dst + static_cast<std::size_t>(blockIdx.y) * 3 * pixels;
  // c is the network's channel; the BGR input holds R at 2, B at 0.
  for (int c = 0; c < 3; ++c)
    out[norm.nhwc ? static_cast<std::size_t>(i) * 3 + c : static_cast<std::size_t>(c) * pixels + i] =
        (in[norm.bgr ? c : 2 - c] - norm.mean[c]) * norm.scale[c];
}

}  // namespace

void launch_normalise(const std::uint8_t* src, int width, int height, int batch,
                      const Normalisation& norm, float* dst, cudaStream_t stream) {
  const int pixels = width * height;
  const dim3 block(256);
  const dim3 grid((pixels + block.x - 1) / block.x, batch);
  normalise_kernel<<<grid, block, 0, stream>>>(src, pixels, norm, dst);
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
