#include "decode/yolo_boxes_ref.hpp"

#include <vector>

#include "decode/rank_ref.hpp"
#include "decode/yolo_field.hpp"

namespace vidpipe::reference {

DetectionList decode_yolo(const float* head, int fields, int anchors, const Letterbox& lb, const BoxesDecode& p) {
  std::vector<RankCandidate> cands;
  for (int a = 0; a < anchors; ++a) {
    const Detection d = yolo_box(head, fields, anchors, p, a, lb);
    if (d.score > p.score_threshold && in_picture(d)) cands.push_back({d, a});
  }
  return rank_boxes(std::move(cands), p.iou_threshold);
}

}  // namespace vidpipe::reference
