// CPU twin of heatmap_boxes.cu: a probability map to boxes around its regions.
#pragma once
#include <cstdint>
#include <vector>

#include "decode/decode_params.hpp"

namespace vidpipe::reference {

// One region of the map: its pixel box (inclusive), the sum of its probabilities, its size.
struct HeatmapRegion {
  int root;  // the region's first pixel in raster order: names it whatever order it was found in
  int x0, y0, x1, y1;
  unsigned long long sum;  // fixed point: heatmap_fixed
  int pixels;
};

// The 8-connected regions of pixels above `binarize`, by root.
std::vector<HeatmapRegion> heatmap_regions(const float* map, int width, int height, float binarize);

// `map`: width x height probabilities in network-input pixels. Boxes best first (ties by
// region root), at most max_detections, in source pixels through `lb`.
DetectionList decode_heatmap(const float* map, int width, int height, const Letterbox& lb, const HeatmapDecode& p);

}  // namespace vidpipe::reference
