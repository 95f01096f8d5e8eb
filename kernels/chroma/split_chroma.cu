#include "chroma/split_chroma.cuh"
#include "common/cuda_check.hpp"

namespace vidpipe {
namespace {

// One thread per chroma sample pair: the 2x2 luma block above it is copied as well, so one
// launch moves the whole frame (a separate luma copy would be a second pass over it).
__global__ void split_chroma_kernel(const std::uint8_t* luma, int luma_pitch, const std::uint8_t* chroma,
                                    int chroma_pitch, std::uint8_t* frame, YuvLayout to) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= to.chroma_width() || y >= to.chroma_height()) return;
  const std::uint8_t* uv = chroma + static_cast<std::size_t>(y) * chroma_pitch + 2 * x;
  frame[to.offset[1] + static_cast<std::size_t>(y) * to.pitch[1] + x] = uv[0];
  frame[to.offset[2] + static_cast<std::size_t>(y) * to.pitch[2] + x] = uv[1];
  for (int dy = 0; dy < 2; ++dy) {
    const int ly = 2 * y + dy;
    if (ly >= to.height) break;
    for (int dx = 0; dx < 2; ++dx) {
      const int lx = 2 * x + dx;
      if (lx >= to.width) break;
      frame[to.offset[0] + static_cast<std::size_t>(ly) * to.pitch[0] + lx] =
          luma[static_cast<std::size_t>(ly) * luma_pitch + lx];
    }
  }
}

}  // namespace

void launch_split_chroma(const std::uint8_t* luma, int luma_pitch, const std::uint8_t* chroma, int chroma_pitch,
                         std::uint8_t* frame, const YuvLayout& to, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((to.chroma_width() + block.x - 1) / block.x, (to.chroma_height() + block.y - 1) / block.y);
  split_chroma_kernel<<<grid, block, 0, stream>>>(luma, luma_pitch, chroma, chroma_pitch, frame, to);
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
