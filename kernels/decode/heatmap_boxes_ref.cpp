#include "decode/heatmap_boxes_ref.hpp"

#include <algorithm>
#include <map>

namespace vidpipe::reference {
namespace {

// Union-find whose root is a set's smallest index, as the kernel's atomicMin merging leaves it.
int find(std::vector<int>& label, int i) {
  while (label[i] != i) i = label[i] = label[label[i]];
  return i;
}

void unite(std::vector<int>& label, int a, int b) {
  a = find(label, a);
  b = find(label, b);
  if (a < b) label[b] = a;
  if (b < a) label[a] = b;
}

}  // namespace

std::vector<HeatmapRegion> heatmap_regions(const float* map, int width, int height, float binarize) {
  const int n = width * height;
  std::vector<int> label(n, -1);
  for (int i = 0; i < n; ++i)
    if (map[i] > binarize) label[i] = i;
  auto on = [&](int x, int y) { return x >= 0 && x < width && y >= 0 && label[y * width + x] >= 0; };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      if (label[y * width + x] < 0) continue;
      // The neighbours already visited: left and the three above (8-connected, as DBNet's
      // contours are traced).
      const int dx[] = {-1, -1, 0, 1}, dy[] = {0, -1, -1, -1};
      for (int k = 0; k < 4; ++k)
        if (on(x + dx[k], y + dy[k])) unite(label, y * width + x, (y + dy[k]) * width + x + dx[k]);
    }
  std::map<int, HeatmapRegion> regions;
  for (int i = 0; i < n; ++i) {
    if (label[i] < 0) continue;
    const int root = find(label, i), x = i % width, y = i / width;
    auto [it, fresh] = regions.try_emplace(root, HeatmapRegion{root, x, y, x, y, 0, 0});
    HeatmapRegion& r = it->second;
    r.x0 = std::min(r.x0, x);
    r.y0 = std::min(r.y0, y);
    r.x1 = std::max(r.x1, x);
    r.y1 = std::max(r.y1, y);
    r.sum += heatmap_fixed(map[i]);
    ++r.pixels;
  }
  std::vector<HeatmapRegion> out;
  for (const auto& [root, r] : regions) out.push_back(r);
  return out;
}

DetectionList decode_heatmap(const float* map, int width, int height, const Letterbox& lb, const HeatmapDecode& p) {
  struct Candidate {
    float score;
    int root;
    Detection box;
  };
  std::vector<Candidate> kept;
  for (const HeatmapRegion& r : heatmap_regions(map, width, height, p.binarize)) {
    const float w = static_cast<float>(r.x1 - r.x0 + 1), h = static_cast<float>(r.y1 - r.y0 + 1);
    const float score = heatmap_mean(r.sum, r.pixels);
    if (std::min(w, h) < p.min_side || !(score > p.score_threshold)) continue;
    const float grow = w * h * p.unclip / (2 * (w + h));
    const Detection box = to_source(r.x0 - grow, r.y0 - grow, r.x1 + 1 + grow, r.y1 + 1 + grow, score, lb);
    if (in_picture(box)) kept.push_back({score, r.root, box});
  }
  std::sort(kept.begin(), kept.end(), [](const Candidate& a, const Candidate& b) {
    return a.score > b.score || (a.score == b.score && a.root < b.root);
  });
  DetectionList list;
  for (const Candidate& c : kept) {
    if (list.count == max_detections) break;
    list.det[list.count++] = c.box;
  }
  return list;
}

}  // namespace vidpipe::reference
