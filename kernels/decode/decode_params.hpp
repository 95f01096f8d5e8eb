// What the output decoders of a user's ONNX model (gpu.onnx.decoder) take, shared by each
// kernel and its CPU twin.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

// A probability map such as DBNet's (text detectors): boxes around the connected regions
// above `binarize`, as PaddleOCR's DBPostProcess finds them, axis-aligned.
struct HeatmapDecode {
  float binarize = 0.3f;         // a pixel belongs to a region above this probability
  float score_threshold = 0.6f;  // a region is kept when its mean probability is above this
  float unclip = 1.5f;  // DBNet predicts regions shrunk from the text: each side grows by area * unclip / perimeter
  int min_side = 3;     // regions whose box is narrower than this (network pixels) are noise
};

// YOLO-style heads: per anchor a box (centre x, centre y, width, height in network pixels)
// and class scores, optionally after an objectness score.
struct BoxesDecode {
  float score_threshold = 0.25f;
  float iou_threshold = 0.45f;
  bool objectness = false;  // YOLOv5's [x, y, w, h, obj, classes...]; YOLOv8's has none
  bool anchors_last = true;  // [N, 4+C, A] (YOLOv8's export); false: [N, A, 4+C(+1)]
};

// MediaPipe's BlazeFace heads: per anchor a score logit and 16 values (the box's centre offset
// and size, then six key points, in input pixels), the anchors on two grids, `cells` x `cells`
// of 2 a cell then (cells/2) x (cells/2) of 6, all of a cell's at its centre (the 128 and the
// 256 models alike: 896 anchors). Overlaps are blended, as MediaPipe's weighted NMS does.
struct BlazeFaceDecode {
  float score_threshold = 0.5f;
  float iou_threshold = 0.3f;
  int cells = 16;
  int input_width = 256, input_height = 256;
  static constexpr int values = 16;  // a box's values: 4 for the box, 12 for its key points
};

// Anchors of BlazeFace's two grids with `cells` cells a side on the first.
VP_HD inline int blazeface_anchors(int cells) { return 2 * cells * cells + 6 * (cells / 2) * (cells / 2); }

// Where a box in network-input pixels lies in the source frame: the letterbox undone, and
// held to the picture (a box reaching into the padding stops at the picture's edge).
VP_HD inline Detection to_source(float x0, float y0, float x1, float y1, float score, const Letterbox& lb) {
  auto clamp = [](float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; };
  const float left = static_cast<float>(lb.pad_x), top = static_cast<float>(lb.pad_y);
  const float right = left + lb.content_width, bottom = top + lb.content_height;
  Detection d;
  d.x0 = (clamp(x0, left, right) - left) / lb.scale_x;
  d.y0 = (clamp(y0, top, bottom) - top) / lb.scale_y;
  d.x1 = (clamp(x1, left, right) - left) / lb.scale_x;
  d.y1 = (clamp(y1, top, bottom) - top) / lb.scale_y;
  d.score = score;
  d.label = 0;
  return d;
}

// A region's probabilities are summed in fixed point (2^-24): integer adds give the same total
// in any order, so a region's mean, its score, which orders the boxes, is the same whichever
// threads of the GPU added it up, and the same in the CPU twin.
VP_HD inline unsigned long long heatmap_fixed(float p) {
  return static_cast<unsigned long long>(static_cast<double>(p) * 16777216.0 + 0.5);
}
VP_HD inline float heatmap_mean(unsigned long long sum, int pixels) {
  return static_cast<float>(static_cast<double>(sum) / 16777216.0 / pixels);
}

// A box left with no area once held to the picture lay in the letterbox's padding.
VP_HD inline bool in_picture(const Detection& d) { return d.x1 > d.x0 && d.y1 > d.y0; }

}  // namespace vidpipe
