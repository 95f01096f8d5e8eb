// How a YOLO head's values are read, for the kernel and its CPU twin alike.
#pragma once
#include <cstddef>

#include "decode/decode_params.hpp"

namespace vidpipe {

// Field f of anchor a in one frame's head.
VP_HD inline float yolo_field(const float* head, int fields, int anchors, bool anchors_last, int a, int f) {
  return anchors_last ? head[static_cast<std::size_t>(f) * anchors + a] : head[static_cast<std::size_t>(a) * fields + f];
}

// The anchor's score (its best class, times its objectness where the head has one), box and
// class (the first of equal best).
VP_HD inline Detection yolo_box(const float* head, int fields, int anchors, const BoxesDecode& p, int a,
                                const Letterbox& lb) {
  const int first_class = p.objectness ? 5 : 4;
  float best = 0.f;
  int label = 0;
  for (int f = first_class; f < fields; ++f) {
    const float v = yolo_field(head, fields, anchors, p.anchors_last, a, f);
    if (v > best) best = v, label = f - first_class;
  }
  if (p.objectness) best *= yolo_field(head, fields, anchors, p.anchors_last, a, 4);
  const float cx = yolo_field(head, fields, anchors, p.anchors_last, a, 0);
  const float cy = yolo_field(head, fields, anchors, p.anchors_last, a, 1);
  const float w = yolo_field(head, fields, anchors, p.anchors_last, a, 2);
  const float h = yolo_field(head, fields, anchors, p.anchors_last, a, 3);
  Detection d = to_source(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, best, lb);
  d.label = label;
  return d;
}

}  // namespace vidpipe
