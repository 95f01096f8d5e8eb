// CPU twin of rank.cuh: candidates best first (ties by index), then greedy non-maximum
// suppression (or MediaPipe's weighted kind) into one frame's DetectionList.
#pragma once
#include <vector>

#include "common/image_types.hpp"

namespace vidpipe::reference {

struct RankCandidate {
  Detection box;  // box.score ranks it
  int index;      // where the decoder found it: breaks ties
};

double box_iou(const Detection& a, const Detection& b);

// Boxes overlapping a better one by more than `iou_threshold` are dropped (above 1: none is);
// with `blend`, a kept box is the score-weighted mean of itself and those it dropped.
DetectionList rank_boxes(std::vector<RankCandidate> candidates, float iou_threshold, bool blend = false);

}  // namespace vidpipe::reference
