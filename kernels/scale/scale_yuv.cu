#include "common/cuda_check.hpp"
#include "scale/scale_yuv.cuh"

namespace vidpipe {
namespace {

__device__ float source_coordinate(int out, int out_size, int in_size) {
  return fminf(fmaxf((out + 0.5f) * in_size / out_size - 0.5f, 0.f), static_cast<float>(in_size - 1));
}

// One thread per output sample of each channel (CHANNELS 2: NV12's UV pairs).
template <int CHANNELS>
__global__ void scale_plane_kernel(const std::uint8_t* src, PlaneView in, std::size_t src_stride, std::uint8_t* dst,
                                   PlaneView out, std::size_t dst_stride) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out.width || y >= out.height) return;
  const float sy = source_coordinate(y, out.height, in.height);
  const float sx = source_coordinate(x, out.width, in.width);
  const int y0 = static_cast<int>(sy), y1 = min(y0 + 1, in.height - 1);
  const int x0 = static_cast<int>(sx), x1 = min(x0 + 1, in.width - 1);
  const float fy = sy - y0, fx = sx - x0;
  const std::uint8_t* row0 = src + blockIdx.z * src_stride + in.offset + static_cast<std::size_t>(y0) * in.pitch;
  const std::uint8_t* row1 = src + blockIdx.z * src_stride + in.offset + static_cast<std::size_t>(y1) * in.pitch;
  std::uint8_t* o = dst + blockIdx.z * dst_stride + out.offset + static_cast<std::size_t>(y) * out.pitch + x * CHANNELS;
#pragma unroll
  for (int c = 0; c < CHANNELS; ++c) {
    const float top = row0[x0 * CHANNELS + c] * (1.f - fx) + row0[x1 * CHANNELS + c] * fx;
    const float bottom = row1[x0 * CHANNELS + c] * (1.f - fx) + row1[x1 * CHANNELS + c] * fx;
    o[c] = static_cast<std::uint8_t>(__float2int_rn(top * (1.f - fy) + bottom * fy));
  }
}

}  // namespace

void launch_scale_yuv(const std::uint8_t* src, const YuvLayout& from, std::size_t src_stride, int batch,
                      std::uint8_t* dst, const YuvLayout& to, std::size_t dst_stride, cudaStream_t stream) {
  const dim3 block(32, 8);
  for (int p = 0; p < from.planes(); ++p) {
    const PlaneView in = plane_of(from, p), out = plane_of(to, p);
    const dim3 grid((out.width + block.x - 1) / block.x, (out.height + block.y - 1) / block.y, batch);
    if (p > 0 && from.nv12)
      scale_plane_kernel<2><<<grid, block, 0, stream>>>(src, in, src_stride, dst, out, dst_stride);
    else
      scale_plane_kernel<1><<<grid, block, 0, stream>>>(src, in, src_stride, dst, out, dst_stride);
    CUDA_CHECK_LAUNCH();
  }
}

}  // namespace vidpipe
