// How BlazeFace's heads are read, for the kernel and its CPU twin alike.
#pragma once
#include <cmath>
#include <cstddef>

#include "decode/decode_params.hpp"

namespace vidpipe {

// One frame's heads gathered: `scores` (a logit an anchor), then `boxes` (16 values an anchor),
// the first grid's anchors before the second's. Anchor a's face, its score a probability.
VP_HD inline Detection blazeface_box(const float* scores, const float* boxes, const BlazeFaceDecode& p, int a,
                                     const Letterbox& lb) {
  const int first_grid = 2 * p.cells * p.cells;
  const bool first = a < first_grid;
  const int side = first ? p.cells : p.cells / 2;
  const int cell = first ? a / 2 : (a - first_grid) / 6;
  const float ax = (cell % side + 0.5f) / side * p.input_width, ay = (cell / side + 0.5f) / side * p.input_height;
  const float* v = boxes + static_cast<std::size_t>(a) * BlazeFaceDecode::values;
  const float cx = ax + v[0], cy = ay + v[1], w = v[2], h = v[3];
  float logit = scores[a];
  logit = logit < -100.f ? -100.f : logit > 100.f ? 100.f : logit;  // MediaPipe's score clipping
  const float score = 1.f / (1.f + expf(-logit));
  return to_source(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, score, lb);
}

}  // namespace vidpipe
