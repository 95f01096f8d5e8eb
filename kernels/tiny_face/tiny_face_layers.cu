#include <type_traits>

#include "common/cuda_check.hpp"
#include "decode/rank.cuh"
#include "tiny_face/tiny_face_layers.cuh"
#include "tiny_face/tiny_face_net.hpp"

namespace vidpipe {
namespace {

__device__ inline float leaky01(float v) { return v > 0.f ? v : 0.1f * v; }

// Each thread computes KT output channels of one pixel: every input value it loads serves
// KT filters instead of one. Each channel's sum runs in the same order as with KT = 1, so
// the output does not depend on KT (launch_with_channel_tile picks it).
template <int KT>
__global__ void conv3x3_kernel(const float* in, int C, int H, int W, const float* w, const float* bias, int K,
                               int pad, bool leaky, float* out, int Ho, int Wo) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int groups = (K + KT - 1) / KT;
  const int b = blockIdx.z / groups, k0 = (blockIdx.z % groups) * KT;
  if (x >= Wo || y >= Ho) return;
  const float* img = in + static_cast<std::size_t>(b) * C * H * W;
  float acc[KT];
#pragma unroll
  for (int j = 0; j < KT; ++j) acc[j] = k0 + j < K ? bias[k0 + j] : 0.f;
  for (int c = 0; c < C; ++c)
    for (int ky = 0; ky < 3; ++ky) {
      const int sy = y + ky - pad;
      if (sy < 0 || sy >= H) continue;
      for (int kx = 0; kx < 3; ++kx) {
        const int sx = x + kx - pad;
        if (sx < 0 || sx >= W) continue;
        const float v = img[(static_cast<std::size_t>(c) * H + sy) * W + sx];
#pragma unroll
        for (int j = 0; j < KT; ++j)
          if (k0 + j < K) acc[j] += v * w[(((k0 + j) * C + c) * 3 + ky) * 3 + kx];
      }
    }
#pragma unroll
  for (int j = 0; j < KT; ++j)
    if (k0 + j < K) out[((static_cast<std::size_t>(b) * K + k0 + j) * Ho + y) * Wo + x] = leaky ? leaky01(acc[j]) : acc[j];
}

__global__ void depthwise3x3_kernel(const float* in, int C, int H, int W, const float* w, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int plane = blockIdx.z;  // image * C + channel
  if (x >= W || y >= H) return;
  const int c = plane % C;
  const float* src = in + static_cast<std::size_t>(plane) * H * W;
  float acc = 0.f;
  for (int ky = 0; ky < 3; ++ky) {
    const int sy = y + ky - 1;
    if (sy < 0 || sy >= H) continue;
    for (int kx = 0; kx < 3; ++kx) {
      const int sx = x + kx - 1;
      if (sx < 0 || sx >= W) continue;
      acc += src[sy * W + sx] * w[c * 9 + ky * 3 + kx];
    }
  }
  out[static_cast<std::size_t>(plane) * H * W + y * W + x] = acc;
}

// One thread per pixel and KT output channels: neighbouring threads read neighbouring
// pixels of the same input channel (coalesced) and the same weights (broadcast); each value
// read serves KT channels. Sums in the same order whatever KT.
template <int KT>
__global__ void pointwise_kernel(const float* in, int C, int P, const float* w, const float* bias, int K, bool leaky,
                                 float* out) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  const int k0 = blockIdx.y * KT;
  const int b = blockIdx.z;
  if (p >= P) return;
  const float* src = in + static_cast<std::size_t>(b) * C * P + p;
  float acc[KT];
#pragma unroll
  for (int j = 0; j < KT; ++j) acc[j] = k0 + j < K ? bias[k0 + j] : 0.f;
  for (int c = 0; c < C; ++c) {
    const float v = src[static_cast<std::size_t>(c) * P];
#pragma unroll
    for (int j = 0; j < KT; ++j)
      if (k0 + j < K) acc[j] += v * w[static_cast<std::size_t>(k0 + j) * C + c];
  }
#pragma unroll
  for (int j = 0; j < KT; ++j)
    if (k0 + j < K) out[(static_cast<std::size_t>(b) * K + k0 + j) * P + p] = leaky ? leaky01(acc[j]) : acc[j];
}

__global__ void maxpool2x2_kernel(const float* in, int H, int W, int stride, float* out, int Ho, int Wo) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int plane = blockIdx.z;
  if (x >= Wo || y >= Ho) return;
  // TF 'same': any padding goes after the input, so windows start at y*stride.
  const float* src = in + static_cast<std::size_t>(plane) * H * W;
  float m = -INFINITY;
  for (int dy = 0; dy < 2; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      const int sy = y * stride + dy, sx = x * stride + dx;
      if (sy < H && sx < W) m = fmaxf(m, src[sy * W + sx]);
    }
  out[static_cast<std::size_t>(plane) * Ho * Wo + y * Wo + x] = m;
}

__device__ inline float sigmoidf(float v) { return 1.f / (1.f + expf(-v)); }

// One block per image: score every (cell, anchor), offer those over the threshold, then
// rank them and suppress overlaps as face-api does (decode/rank.cuh).
__global__ void decode_faces_kernel(const float* net_out, int cells, Letterbox lb, float score_threshold,
                                    float iou_threshold, DetectionList* lists) {
  __shared__ RankShared ranked;
  const int b = blockIdx.x;
  const int candidates = cells * cells * TinyFaceWeights::anchors;
  const float* out = net_out + static_cast<std::size_t>(b) * TinyFaceWeights::outputs * cells * cells;
  rank_clear(ranked);
  for (int i = threadIdx.x; i < candidates; i += blockDim.x) {
    const int anchor = i % TinyFaceWeights::anchors, cell = i / TinyFaceWeights::anchors;
    const int row = cell / cells, col = cell % cells;
    auto at = [&](int field) { return out[(static_cast<std::size_t>(anchor * 5 + field) * cells + row) * cells + col]; };
    const float s = sigmoidf(at(4));
    if (!(s > score_threshold)) continue;
    const float size = static_cast<float>(lb.dst_width);
    const float cx = (col + sigmoidf(at(0))) / cells * size, cy = (row + sigmoidf(at(1))) / cells * size;
    const float w = expf(at(2)) * tiny_face_anchor(2 * anchor) / cells * size;
    const float h = expf(at(3)) * tiny_face_anchor(2 * anchor + 1) / cells * size;
    Detection d;
    d.x0 = (cx - w / 2 - lb.pad_x) / lb.scale_x;
    d.y0 = (cy - h / 2 - lb.pad_y) / lb.scale_y;
    d.x1 = (cx + w / 2 - lb.pad_x) / lb.scale_x;
    d.y1 = (cy + h / 2 - lb.pad_y) / lb.scale_y;
    d.score = s;
    d.label = 0;
    rank_offer(ranked, d, i);
  }
  rank_write(ranked, score_threshold, iou_threshold, lists[b]);
}

dim3 grid2d(int w, int h, int z, dim3 block) { return dim3((w + block.x - 1) / block.x, (h + block.y - 1) / block.y, z); }

// Two blocks per SM: fewer leave SMs idle, which costs more than the loads a wider channel
// tile saves (the 13x13 layers at batch 1). Counted on the first device this process
// launches on: one GPU a process today (issue 15 would make it per device).
long enough_blocks() {
  static const long blocks = [] {
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return 2L * sms;
  }();
  return blocks;
}

// Calls launch(std::integral_constant<int, KT>) with the widest channel tile (8, 4, 2 or 1)
// that still gives the grid enough blocks; `blocks_per_channel`: the grid's blocks for one
// output channel.
template <class Launch>
void launch_with_channel_tile(long blocks_per_channel, int channels, Launch&& launch) {
  auto blocks = [&](int kt) { return blocks_per_channel * ((channels + kt - 1) / kt); };
  if (blocks(8) >= enough_blocks()) return launch(std::integral_constant<int, 8>{});
  if (blocks(4) >= enough_blocks()) return launch(std::integral_constant<int, 4>{});
  if (blocks(2) >= enough_blocks()) return launch(std::integral_constant<int, 2>{});
  launch(std::integral_constant<int, 1>{});
}

}  // namespace

void launch_conv3x3(const float* in, int batch, int C, int H, int W, const float* w, const float* bias, int K, int pad,
                    bool leaky, float* out, cudaStream_t stream) {
  const int Ho = H + 2 * pad - 2, Wo = W + 2 * pad - 2;
  const dim3 block(32, 8);
  const dim3 plane = grid2d(Wo, Ho, 1, block);
  launch_with_channel_tile(long(plane.x) * plane.y * batch, K, [&](auto kt) {
    const int groups = (K + kt() - 1) / kt();
    conv3x3_kernel<kt()><<<grid2d(Wo, Ho, batch * groups, block), block, 0, stream>>>(in, C, H, W, w, bias, K, pad,
                                                                                      leaky, out, Ho, Wo);
  });
  CUDA_CHECK_LAUNCH();
}

void launch_depthwise3x3(const float* in, int batch, int C, int H, int W, const float* w, float* out,
                         cudaStream_t stream) {
  const dim3 block(32, 8);
  depthwise3x3_kernel<<<grid2d(W, H, batch * C, block), block, 0, stream>>>(in, C, H, W, w, out);
  CUDA_CHECK_LAUNCH();
}

void launch_pointwise(const float* in, int batch, int C, int P, const float* w, const float* bias, int K, bool leaky,
                      float* out, cudaStream_t stream) {
  const int threads = P >= 256 ? 256 : ((P + 31) / 32) * 32;
  const int pixel_blocks = (P + threads - 1) / threads;
  launch_with_channel_tile(long(pixel_blocks) * batch, K, [&](auto kt) {
    pointwise_kernel<kt()><<<dim3(pixel_blocks, (K + kt() - 1) / kt(), batch), threads, 0, stream>>>(in, C, P, w, bias,
                                                                                                    K, leaky, out);
  });
  CUDA_CHECK_LAUNCH();
}

void launch_maxpool2x2(const float* in, int batch, int C, int H, int W, int stride, float* out, cudaStream_t stream) {
  const int Ho = tf_same_out(H, stride), Wo = tf_same_out(W, stride);
  const dim3 block(32, 8);
  maxpool2x2_kernel<<<grid2d(Wo, Ho, batch * C, block), block, 0, stream>>>(in, H, W, stride, out, Ho, Wo);
  CUDA_CHECK_LAUNCH();
}

void launch_decode_faces(const float* net_out, int batch, int cells, const Letterbox& lb, float score_threshold,
                         float iou_threshold, DetectionList* lists, cudaStream_t stream) {
  decode_faces_kernel<<<batch, 256, 0, stream>>>(net_out, cells, lb, score_threshold, iou_threshold, lists);
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
