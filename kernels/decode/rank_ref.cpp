#include "decode/rank_ref.hpp"

#include <algorithm>

namespace vidpipe::reference {

double box_iou(const Detection& a, const Detection& b) {
  const double w = std::max(0.0, double(std::min(a.x1, b.x1)) - std::max(a.x0, b.x0));
  const double h = std::max(0.0, double(std::min(a.y1, b.y1)) - std::max(a.y0, b.y0));
  const double inter = w * h;
  return inter / (double(a.x1 - a.x0) * (a.y1 - a.y0) + double(b.x1 - b.x0) * (b.y1 - b.y0) - inter);
}

namespace {

// In float and in sorted order, as the kernel adds them up.
Detection blended(const std::vector<RankCandidate>& cands, const std::vector<int>& owner, std::size_t i) {
  const Detection& best = cands[i].box;
  float x0 = best.x0 * best.score, y0 = best.y0 * best.score, x1 = best.x1 * best.score, y1 = best.y1 * best.score;
  float weight = best.score;
  for (std::size_t j = i + 1; j < cands.size(); ++j) {
    if (owner[j] != static_cast<int>(i)) continue;
    const Detection& d = cands[j].box;
    x0 += d.x0 * d.score, y0 += d.y0 * d.score, x1 += d.x1 * d.score, y1 += d.y1 * d.score;
    weight += d.score;
  }
  return {x0 / weight, y0 / weight, x1 / weight, y1 / weight, best.score, best.label};
}

}  // namespace

DetectionList rank_boxes(std::vector<RankCandidate> cands, float iou_threshold, bool blend) {
  std::sort(cands.begin(), cands.end(), [](const RankCandidate& a, const RankCandidate& b) {
    return a.box.score > b.box.score || (a.box.score == b.box.score && a.index < b.index);
  });
  std::vector<bool> keep(cands.size(), true);
  std::vector<int> owner(cands.size(), -1);
  DetectionList list;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    if (!keep[i]) continue;
    for (std::size_t j = i + 1; j < cands.size(); ++j)
      if (keep[j] && box_iou(cands[i].box, cands[j].box) > iou_threshold) {
        keep[j] = false;
        owner[j] = static_cast<int>(i);
      }
    if (list.count < max_detections) list.det[list.count++] = blend ? blended(cands, owner, i) : cands[i].box;
  }
  return list;
}

}  // namespace vidpipe::reference
