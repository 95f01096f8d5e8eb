#include "common/cuda_check.hpp"
#include "narrow/narrow_samples.hpp"
#include "narrow/narrow_yuv.cuh"

namespace vidpipe {
namespace {

__global__ void narrow_luma_kernel(const std::uint8_t* src, YuvLayout from, std::size_t src_stride,
                                   std::uint8_t* dst, YuvLayout to, std::size_t dst_stride) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= to.width || y >= to.height) return;
  const std::uint8_t* row = src + blockIdx.z * src_stride + from.offset[0] + static_cast<std::size_t>(y) * from.pitch[0];
  dst[blockIdx.z * dst_stride + to.offset[0] + static_cast<std::size_t>(y) * to.pitch[0] + x] =
      to_8_bits(read_sample(row, x, from), from.sample_bits);
}

// One thread per 4:2:0 chroma position, writing its U and V.
__global__ void narrow_chroma_kernel(const std::uint8_t* src, YuvLayout from, std::size_t src_stride,
                                     std::uint8_t* dst, YuvLayout to, std::size_t dst_stride) {
  const int cx = blockIdx.x * blockDim.x + threadIdx.x;
  const int cy = blockIdx.y * blockDim.y + threadIdx.y;
  if (cx >= to.chroma_width() || cy >= to.chroma_height()) return;
  // The source chroma under the 2x2 luma block, repeated where it covers the block
  // (so 4:2:0 reads one sample four times, 4:2:2 two rows, 4:4:4 four samples).
  const int xs[2] = {(2 * cx) >> from.chroma_shift_x, min(2 * cx + 1, from.width - 1) >> from.chroma_shift_x};
  const int ys[2] = {(2 * cy) >> from.chroma_shift_y, min(2 * cy + 1, from.height - 1) >> from.chroma_shift_y};
  const std::uint8_t* frame = src + blockIdx.z * src_stride;
  for (int c = 0; c < 2; ++c) {
    const int plane = from.nv12 ? 1 : 1 + c;
    unsigned sum = 0;
    for (int j = 0; j < 2; ++j) {
      const std::uint8_t* row = frame + from.offset[plane] + static_cast<std::size_t>(ys[j]) * from.pitch[plane];
      for (int i = 0; i < 2; ++i) sum += read_sample(row, from.nv12 ? 2 * xs[i] + c : xs[i], from);
    }
    dst[blockIdx.z * dst_stride + to.offset[1 + c] + static_cast<std::size_t>(cy) * to.pitch[1 + c] + cx] =
        to_8_bits((sum + 2) / 4, from.sample_bits);
  }
}

}  // namespace

void launch_narrow_yuv(const std::uint8_t* src, const YuvLayout& from, std::size_t src_stride, int batch,
                       std::uint8_t* dst, const YuvLayout& to, std::size_t dst_stride, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 luma_grid((to.width + block.x - 1) / block.x, (to.height + block.y - 1) / block.y, batch);
  narrow_luma_kernel<<<luma_grid, block, 0, stream>>>(src, from, src_stride, dst, to, dst_stride);
  CUDA_CHECK_LAUNCH();
  const dim3 chroma_grid((to.chroma_width() + block.x - 1) / block.x, (to.chroma_height() + block.y - 1) / block.y,
                         batch);
  narrow_chroma_kernel<<<chroma_grid, block, 0, stream>>>(src, from, src_stride, dst, to, dst_stride);
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
