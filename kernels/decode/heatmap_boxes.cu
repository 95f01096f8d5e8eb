#include <climits>

#include "common/cuda_check.hpp"
#include "decode/heatmap_boxes.cuh"
#include "decode/rank.cuh"

namespace vidpipe {
namespace {

struct Region {
  int root, x0, y0, x1, y1;
  unsigned long long sum;  // fixed point: heatmap_fixed
  int pixels;
};

// A frame's pixels, its place in the batch: z of the grid.
struct Frame {
  int width, height;
  VP_HD std::size_t offset(int b) const { return static_cast<std::size_t>(b) * width * height; }
};

__device__ int find_root(const int* labels, int i) {
  while (labels[i] != i) i = labels[i];
  return i;
}

// Playne and Hawick's merge: hang the larger root under the smaller until both agree.
__device__ void unite(int* labels, int a, int b) {
  bool done = false;
  while (!done) {
    a = find_root(labels, a);
    b = find_root(labels, b);
    if (a < b) {
      const int old = atomicMin(&labels[b], a);
      done = old == b;
      b = old;
    } else if (b < a) {
      const int old = atomicMin(&labels[a], b);
      done = old == a;
      a = old;
    } else {
      done = true;
    }
  }
}

__global__ void label_init(const float* map, Frame f, float binarize, int* labels) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= f.width * f.height) return;
  const std::size_t at = f.offset(blockIdx.y) + i;
  labels[at] = map[at] > binarize ? i : -1;
}

__global__ void label_merge(Frame f, int* labels) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= f.width * f.height) return;
  int* frame = labels + f.offset(blockIdx.y);
  if (frame[i] < 0) return;
  const int x = i % f.width, y = i / f.width;
  // Left and the three above: each pair of neighbours is merged once (8-connected).
  const int dx[] = {-1, -1, 0, 1}, dy[] = {0, -1, -1, -1};
  for (int k = 0; k < 4; ++k) {
    const int nx = x + dx[k], ny = y + dy[k];
    if (nx < 0 || nx >= f.width || ny < 0) continue;
    if (frame[ny * f.width + nx] >= 0) unite(frame, i, ny * f.width + nx);
  }
}

// Every pixel points at its root; each root takes a region number.
__global__ void label_number(Frame f, int* labels, int* region_of, Region* regions, int* region_count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= f.width * f.height) return;
  int* frame = labels + f.offset(blockIdx.y);
  if (frame[i] < 0) return;
  const int root = find_root(frame, i);
  if (root != i) return;
  const int r = atomicAdd(&region_count[blockIdx.y], 1);
  region_of[f.offset(blockIdx.y) + i] = r;
  if (r < heatmap_max_regions)
    regions[blockIdx.y * heatmap_max_regions + r] = {root, INT_MAX, INT_MAX, -1, -1, 0ull, 0};
}

__global__ void region_gather(const float* map, Frame f, const int* labels, const int* region_of, Region* regions) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= f.width * f.height) return;
  const int* frame = labels + f.offset(blockIdx.y);
  if (frame[i] < 0) return;
  const int r = region_of[f.offset(blockIdx.y) + find_root(frame, i)];
  if (r >= heatmap_max_regions) return;
  Region& g = regions[blockIdx.y * heatmap_max_regions + r];
  const int x = i % f.width, y = i / f.width;
  atomicMin(&g.x0, x);
  atomicMin(&g.y0, y);
  atomicMax(&g.x1, x);
  atomicMax(&g.y1, y);
  atomicAdd(&g.sum, heatmap_fixed(map[f.offset(blockIdx.y) + i]));
  atomicAdd(&g.pixels, 1);
}

// One block per frame: each region kept grows by the unclip distance and is ranked by its
// mean probability; regions do not overlap, so nothing is suppressed.
__global__ void region_rank(const Region* regions, const int* region_count, Letterbox lb, HeatmapDecode p,
                            DetectionList* lists) {
  __shared__ RankShared ranked;
  rank_clear(ranked);
  const int count = min(region_count[blockIdx.x], heatmap_max_regions);
  for (int r = threadIdx.x; r < count; r += blockDim.x) {
    const Region& g = regions[blockIdx.x * heatmap_max_regions + r];
    const float w = static_cast<float>(g.x1 - g.x0 + 1), h = static_cast<float>(g.y1 - g.y0 + 1);
    const float score = heatmap_mean(g.sum, g.pixels);
    if (fminf(w, h) < p.min_side || !(score > p.score_threshold)) continue;
    const float grow = w * h * p.unclip / (2 * (w + h));
    const Detection box = to_source(g.x0 - grow, g.y0 - grow, g.x1 + 1 + grow, g.y1 + 1 + grow, score, lb);
    if (in_picture(box)) rank_offer(ranked, box, g.root);
  }
  rank_write(ranked, p.score_threshold, 2.f, lists[blockIdx.x]);
}

}  // namespace

std::size_t heatmap_region_bytes() { return sizeof(Region); }

void launch_decode_heatmap(const float* map, int batch, int width, int height, const Letterbox& lb,
                           const HeatmapDecode& p, const HeatmapScratchView& s, DetectionList* lists,
                           cudaStream_t stream) {
  if (batch <= 0) return;
  const Frame f{width, height};
  const dim3 block(256), grid((width * height + 255) / 256, batch);
  auto* regions = static_cast<Region*>(s.regions);
  CUDA_CHECK(cudaMemsetAsync(s.region_count, 0, batch * sizeof(int), stream));
  label_init<<<grid, block, 0, stream>>>(map, f, p.binarize, s.labels);
  label_merge<<<grid, block, 0, stream>>>(f, s.labels);
  label_number<<<grid, block, 0, stream>>>(f, s.labels, s.region_of, regions, s.region_count);
  region_gather<<<grid, block, 0, stream>>>(map, f, s.labels, s.region_of, regions);
  region_rank<<<batch, 256, 0, stream>>>(regions, s.region_count, lb, p, lists);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace vidpipe
