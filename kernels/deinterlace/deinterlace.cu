#include "common/cuda_check.hpp"
#include "deinterlace/deinterlace.cuh"

namespace vidpipe {
namespace {

// One thread per byte of a rebuilt row: rows of the dropped field only, so no thread
// writes what another reads.
__global__ void deinterlace_plane_kernel(std::uint8_t* frames, std::size_t stride, std::size_t offset, int width_bytes,
                                         int height, int pitch, int kept_parity) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = 2 * (blockIdx.y * blockDim.y + threadIdx.y) + (1 - kept_parity);
  if (x >= width_bytes || y >= height) return;
  const int above = y - 1 >= 0 ? y - 1 : y + 1;
  const int below = y + 1 < height ? y + 1 : y - 1;
  if (above >= height) return;  // a one-row plane has nothing to rebuild from
  std::uint8_t* plane = frames + blockIdx.z * stride + offset;
  plane[static_cast<std::size_t>(y) * pitch + x] = static_cast<std::uint8_t>(
      (plane[static_cast<std::size_t>(above) * pitch + x] + plane[static_cast<std::size_t>(below) * pitch + x] + 1) / 2);
}

}  // namespace

void launch_deinterlace(std::uint8_t* frames, const YuvLayout& l, std::size_t stride, int batch, bool keep_top,
                        cudaStream_t stream) {
  const dim3 block(64, 4);
  const int kept_parity = keep_top ? 0 : 1;
  auto plane = [&](std::size_t offset, int width_bytes, int height, int pitch) {
    const int rebuilt_rows = (height + kept_parity) / 2;
    const dim3 grid((width_bytes + block.x - 1) / block.x, (rebuilt_rows + block.y - 1) / block.y, batch);
    deinterlace_plane_kernel<<<grid, block, 0, stream>>>(frames, stride, offset, width_bytes, height, pitch, kept_parity);
    CUDA_CHECK_LAUNCH();
  };
  plane(l.offset[0], l.width, l.height, l.pitch[0]);
  const int chroma_bytes = l.chroma_width() * (l.nv12 ? 2 : 1);
  plane(l.offset[1], chroma_bytes, l.chroma_height(), l.pitch[1]);
  if (!l.nv12) plane(l.offset[2], chroma_bytes, l.chroma_height(), l.pitch[2]);
}

}  // namespace vidpipe
