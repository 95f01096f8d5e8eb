#include "common/cuda_check.hpp"
#include "letterbox/resize_letterbox.cuh"

namespace vidpipe {
namespace {

__global__ void resize_letterbox_kernel(const std::uint8_t* src, int src_width, int src_height,
                                        std::size_t src_frame_stride, Letterbox lb,
                                        std::uint8_t* dst, std::size_t dst_frame_stride) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= lb.dst_width || y >= lb.dst_height) return;
  std::uint8_t* out = dst + blockIdx.z * dst_frame_stride +
                      (static_cast<std::size_t>(y) * lb.dst_width + x) * 3;
  const int cx = x - lb.pad_x;
  const int cy = y - lb.pad_y;
  if (cx < 0 || cy < 0 || cx >= lb.content_width || cy >= lb.content_height) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  // Half-pixel centres, as cv::resize(INTER_LINEAR) does.
  const float sx = fminf(fmaxf((cx + 0.5f) * src_width / lb.content_width - 0.5f, 0.f),
                         static_cast<float>(src_width - 1));
  const float sy = fminf(fmaxf((cy + 0.5f) * src_height / lb.content_height - 0.5f, 0.f),
                         static_cast<float>(src_height - 1));
  const int x0 = static_cast<int>(sx);
  const int y0 = static_cast<int>(sy);
  const int x1 = min(x0 + 1, src_width - 1);
  const int y1 = min(y0 + 1, src_height - 1);
  const float fx = sx - x0;
  const float fy = sy - y0;
  const std::uint8_t* frame = src + blockIdx.z * src_frame_stride;
  const std::size_t row0 = static_cast<std::size_t>(y0) * src_width * 3;
  const std::size_t row1 = static_cast<std::size_t>(y1) * src_width * 3;
  for (int c = 0; c < 3; ++c) {
    const float top = frame[row0 + x0 * 3 + c] * (1.f - fx) + frame[row0 + x1 * 3 + c] * fx;
    const float bottom = frame[row1 + x0 * 3 + c] * (1.f - fx) + frame[row1 + x1 * 3 + c] * fx;
    out[c] = static_cast<std::uint8_t>(__float2int_rn(top * (1.f - fy) + bottom * fy));
  }
}

}  // namespace

void launch_resize_letterbox(const std::uint8_t* src, int src_width, int src_height,
                             std::size_t src_frame_stride, int batch, const Letterbox& lb,
                             std::uint8_t* dst, std::size_t dst_frame_stride,
                             cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((lb.dst_width + block.x - 1) / block.x, (lb.dst_height + block.y - 1) / block.y,
                  batch);
  resize_letterbox_kernel<<<grid, block, 0, stream>>>(src, src_width, src_height,
                                                      src_frame_stride, lb, dst,
                                                      dst_frame_stride);
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
