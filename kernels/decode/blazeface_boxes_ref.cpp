#include "decode/blazeface_boxes_ref.hpp"

#include <cmath>
#include <vector>

#include "decode/blazeface_field.hpp"
#include "decode/rank_ref.hpp"

namespace vidpipe::reference {

DetectionList decode_blazeface(const float* heads, const Letterbox& lb, const BlazeFaceDecode& p) {
  const int anchors = blazeface_anchors(p.cells);
  std::vector<RankCandidate> cands;
  for (int a = 0; a < anchors; ++a) {
    const Detection d = blazeface_box(heads, heads + anchors, p, a, lb);
    if (d.score > p.score_threshold && in_picture(d)) cands.push_back({d, a});
  }
  return rank_boxes(std::move(cands), p.iou_threshold, true);
}

}  // namespace vidpipe::reference
