#include "common/cuda_check.hpp"
#include "colour/yuv_to_bgr.cuh"

namespace vidpipe {
namespace {

__device__ inline std::uint8_t to_u8(float v) {
  return static_cast<std::uint8_t>(__float2int_rn(fminf(fmaxf(v, 0.f), 255.f)));
}

__global__ void yuv_to_bgr_kernel(const std::uint8_t* frames, YuvLayout layout,
                                  ColourMatrix m, std::uint8_t* bgr,
                                  std::size_t bgr_frame_stride) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= layout.width || y >= layout.height) return;
  const std::uint8_t* frame = frames + blockIdx.z * layout.frame_bytes;
  const float luma = frame[layout.offset[0] + static_cast<std::size_t>(y) * layout.pitch[0] + x];
  float cb, cr;
  const std::size_t crow = static_cast<std::size_t>(y / 2);
  if (layout.nv12) {
    const std::uint8_t* uv = frame + layout.offset[1] + crow * layout.pitch[1] + (x / 2) * 2;
    cb = uv[0];
    cr = uv[1];
  } else {
    cb = frame[layout.offset[1] + crow * layout.pitch[1] + x / 2];
    cr = frame[layout.offset[2] + crow * layout.pitch[2] + x / 2];
  }
  const float yy = m.y_scale * (luma - m.y_offset);
  cb -= 128.f;
  cr -= 128.f;
  std::uint8_t* out = bgr + blockIdx.z * bgr_frame_stride +
                      (static_cast<std::size_t>(y) * layout.width + x) * 3;
  out[0] = to_u8(yy + m.cb_to_b * cb);
  out[1] = to_u8(yy + m.cb_to_g * cb + m.cr_to_g * cr);
  out[2] = to_u8(yy + m.cr_to_r * cr);
}

}  // namespace

void launch_yuv_to_bgr(const std::uint8_t* frames, const YuvLayout& layout, int batch,
                       const ColourMatrix& matrix, std::uint8_t* bgr,
                       std::size_t bgr_frame_stride, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((layout.width + block.x - 1) / block.x, (layout.height + block.y - 1) / block.y,
                  batch);
  yuv_to_bgr_kernel<<<grid, block, 0, stream>>>(frames, layout, matrix, bgr, bgr_frame_stride);
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
