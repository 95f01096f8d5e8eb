// A probability map (DBNet's, [N, 1, H, W]) to each frame's boxes on the GPU: the map's
// 8-connected regions above the threshold found by union-find (Playne and Hawick's
// equivalence, merged with atomicMin so each region's root is its first pixel, as in the CPU
// twin), their boxes, mean probability and size gathered, then ranked (rank.cuh).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

#include "decode/decode_params.hpp"

namespace vidpipe {

inline constexpr int heatmap_max_regions = 4096;  // per frame; more are left out

// Device memory the decoding works in (the caller owns it): for a batch of N maps of H x W,
// labels and region_of hold N*H*W ints, regions N * heatmap_max_regions * heatmap_region_bytes,
// region_count N ints.
struct HeatmapScratchView {
  int* labels;
  int* region_of;
  void* regions;
  int* region_count;
};
std::size_t heatmap_region_bytes();

// Frame b's map at map + b * width * height; its boxes into lists[b], through lb.
void launch_decode_heatmap(const float* map, int batch, int width, int height, const Letterbox& lb,
                           const HeatmapDecode& p, const HeatmapScratchView& scratch, DetectionList* lists,
                           cudaStream_t stream);

}  // namespace vidpipe
