#include "decode/rank_ref.hpp"

#include <algorithm>

namespace vidpipe::reference {

double box_iou(const Detection& a, const Detection& b) {
  const double w = std::max(0.0, double(std::min(a.x1, b.x1)) - std::max(a.x0, b.x0));
  const double h = std::max(0.0, double(std::min(a.y1, b.y1)) - std::max(a.y0, b.y0));
  const double inter = w * h;
  return inter / (double(a.x1 - a.x0) * (a.y1 - a.y0) + double(b.x1 - b.x0) * (b.y1 - b.y0) - inter);
}

DetectionList rank_boxes(std::vector<RankCandidate> cands, float iou_threshold) {
  std::sort(cands.begin(), cands.end(), [](const RankCandidate& a, const RankCandidate& b) {
    return a.box.score > b.box.score || (a.box.score == b.box.score && a.index < b.index);
  });
  std::vector<bool> keep(cands.size(), true);
  DetectionList list;
  for (std::size_t i = 0; i < cands.size(); ++i) {
    if (!keep[i]) continue;
    if (list.count < max_detections) list.det[list.count++] = cands[i].box;
    for (std::size_t j = i + 1; j < cands.size(); ++j)
      if (keep[j] && box_iou(cands[i].box, cands[j].box) > iou_threshold) keep[j] = false;
  }
  return list;
}

}  // namespace vidpipe::reference
