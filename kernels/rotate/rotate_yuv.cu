#include "common/cuda_check.hpp"
#include "rotate/rotate_yuv.cuh"

namespace vidpipe {
namespace {

// One thread per destination sample, reading the source sample that lands there.
template <int CHANNELS>
__global__ void rotate_plane_kernel(const std::uint8_t* src, PlaneView in, std::size_t src_stride, int turns,
                                    std::uint8_t* dst, PlaneView out, std::size_t dst_stride) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out.width || y >= out.height) return;
  int sx = x, sy = y;
  if (turns == 1) sx = y, sy = in.height - 1 - x;
  if (turns == 2) sx = in.width - 1 - x, sy = in.height - 1 - y;
  if (turns == 3) sx = in.width - 1 - y, sy = x;
  const std::uint8_t* s = src + blockIdx.z * src_stride + in.offset + static_cast<std::size_t>(sy) * in.pitch + sx * CHANNELS;
  std::uint8_t* d = dst + blockIdx.z * dst_stride + out.offset + static_cast<std::size_t>(y) * out.pitch + x * CHANNELS;
#pragma unroll
  for (int c = 0; c < CHANNELS; ++c) d[c] = s[c];
}

}  // namespace

void launch_rotate_yuv(const std::uint8_t* src, const YuvLayout& from, std::size_t src_stride, int batch,
                       int quarter_turns, std::uint8_t* dst, const YuvLayout& to, std::size_t dst_stride,
                       cudaStream_t stream) {
  const dim3 block(32, 8);
  for (int p = 0; p < from.planes(); ++p) {
    const PlaneView in = plane_of(from, p), out = plane_of(to, p);
    const dim3 grid((out.width + block.x - 1) / block.x, (out.height + block.y - 1) / block.y, batch);
    if (p > 0 && from.nv12)
      rotate_plane_kernel<2><<<grid, block, 0, stream>>>(src, in, src_stride, quarter_turns, dst, out, dst_stride);
    else
      rotate_plane_kernel<1><<<grid, block, 0, stream>>>(src, in, src_stride, quarter_turns, dst, out, dst_stride);
    CUDA_CHECK_LAUNCH();
  }
}

}  // namespace vidpipe
