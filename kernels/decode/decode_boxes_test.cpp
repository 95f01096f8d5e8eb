// The output decoders' CPU twins against values worked out by hand: regions of a heatmap
// and their boxes, YOLO heads in both layouts, ranking ties, suppression and the letterbox
// undone at the picture's borders.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "decode/blazeface_boxes_ref.hpp"
#include "decode/heatmap_boxes_ref.hpp"
#include "decode/rank_ref.hpp"
#include "decode/tensor_stats_ref.hpp"
#include "decode/yolo_boxes_ref.hpp"
#include "letterbox/letterbox.hpp"

namespace vidpipe {
namespace {

// A map of `w` x `h` zeros with `value` over each rectangle [x0, x1) x [y0, y1).
struct Rect {
  int x0, y0, x1, y1;
  float value;
};
std::vector<float> map_with(int w, int h, std::initializer_list<Rect> rects) {
  std::vector<float> m(static_cast<std::size_t>(w) * h, 0.f);
  for (const Rect& r : rects)
    for (int y = r.y0; y < r.y1; ++y)
      for (int x = r.x0; x < r.x1; ++x) m[y * w + x] = r.value;
  return m;
}

Letterbox identity(int w, int h) { return make_letterbox(w, h, w, h, LetterboxAlign::top_left); }

TEST(HeatmapReference, RegionsAreEightConnectedAndNamedByTheirFirstPixel) {
  // A U (its arms meet only at the bottom: merged late), a diagonal pair, a lone pixel.
  auto m = map_with(12, 8, {{1, 1, 2, 5, 0.9f}, {3, 1, 4, 5, 0.9f}, {1, 4, 4, 5, 0.9f}, {7, 1, 8, 2, 0.5f},
                            {8, 2, 9, 3, 0.5f}, {10, 6, 11, 7, 0.8f}});
  const auto regions = reference::heatmap_regions(m.data(), 12, 8, 0.3f);
  ASSERT_EQ(regions.size(), 3u);
  EXPECT_EQ(regions[0].root, 1 * 12 + 1);
  EXPECT_EQ(regions[0].x0, 1);
  EXPECT_EQ(regions[0].x1, 3);
  EXPECT_EQ(regions[0].y1, 4);
  EXPECT_EQ(regions[0].pixels, 4 + 4 + 1);  // two arms of 4 and the bottom's middle pixel
  EXPECT_EQ(regions[1].root, 1 * 12 + 7);   // diagonal neighbours are one region
  EXPECT_EQ(regions[1].pixels, 2);
  EXPECT_EQ(regions[2].pixels, 1);
}

TEST(HeatmapReference, BoxesGrowByTheUnclipDistanceAndRankByMeanProbability) {
  // 20x10 of 0.7 and 10x10 of 0.9: unclip 1.5 grows them by 200*1.5/60 = 5 and 100*1.5/40 = 3.75.
  auto m = map_with(64, 32, {{2, 2, 22, 12, 0.7f}, {40, 15, 50, 25, 0.9f}});
  HeatmapDecode p;
  p.score_threshold = 0.6f;
  const DetectionList l = reference::decode_heatmap(m.data(), 64, 32, identity(64, 32), p);
  ASSERT_EQ(l.count, 2);
  EXPECT_FLOAT_EQ(l.det[0].score, 0.9f);
  EXPECT_FLOAT_EQ(l.det[0].x0, 40 - 3.75f);
  EXPECT_FLOAT_EQ(l.det[0].y1, 25 + 3.75f);
  EXPECT_NEAR(l.det[1].score, 0.7f, 1e-6);
  EXPECT_FLOAT_EQ(l.det[1].x0, 0.f);  // 2 - 5 stops at the picture's edge
  EXPECT_FLOAT_EQ(l.det[1].x1, 27.f);
}

TEST(HeatmapReference, FaintThinAndPaddingOnlyRegionsAreLeftOut) {
  // Mean 0.5 (under 0.6), a 2-pixel-high line (under min_side 3), a region in the padding,
  // and one that is kept.
  auto m = map_with(64, 64, {{2, 2, 12, 12, 0.5f}, {20, 20, 40, 22, 0.95f}, {10, 50, 20, 60, 0.95f},
                             {40, 2, 60, 12, 0.95f}});
  const Letterbox lb = make_letterbox(64, 32, 64, 64, LetterboxAlign::top_left);  // rows 32.. are padding
  const DetectionList l = reference::decode_heatmap(m.data(), 64, 64, lb, HeatmapDecode{});
  ASSERT_EQ(l.count, 1);
  EXPECT_FLOAT_EQ(l.det[0].x0, 35.f);
  EXPECT_FLOAT_EQ(l.det[0].y0, 0.f);
}

TEST(HeatmapReference, BoxesGoBackThroughACentredLetterboxToSourcePixels) {
  // A 200x100 source letterboxed centred into 64x64: scale 0.32, 16 rows of padding on top.
  const Letterbox lb = make_letterbox(200, 100, 64, 64, LetterboxAlign::centre);
  ASSERT_EQ(lb.pad_y, 16);
  auto m = map_with(64, 64, {{16, 26, 32, 36, 0.9f}});
  HeatmapDecode p;
  p.unclip = 0.f;
  const DetectionList l = reference::decode_heatmap(m.data(), 64, 64, lb, p);
  ASSERT_EQ(l.count, 1);
  EXPECT_NEAR(l.det[0].x0, 16 / 0.32f, 1e-3);
  EXPECT_NEAR(l.det[0].y0, (26 - 16) / 0.32f, 1e-3);
  EXPECT_NEAR(l.det[0].x1, 32 / 0.32f, 1e-3);
  EXPECT_NEAR(l.det[0].y1, (36 - 16) / 0.32f, 1e-3);
}

// One frame's head of `anchors` boxes with 2 classes, in the layout `p` names.
std::vector<float> head_of(const std::vector<std::vector<float>>& rows, const BoxesDecode& p) {
  const int fields = static_cast<int>(rows[0].size()), anchors = static_cast<int>(rows.size());
  std::vector<float> h(static_cast<std::size_t>(fields) * anchors);
  for (int a = 0; a < anchors; ++a)
    for (int f = 0; f < fields; ++f) (p.anchors_last ? h[f * anchors + a] : h[a * fields + f]) = rows[a][f];
  return h;
}

TEST(YoloReference, BothLayoutsGiveTheSameBoxesBestFirstAndOverlapsSuppressed) {
  // cx, cy, w, h, class 0, class 1. Anchor 1 overlaps anchor 0 (IoU 0.68) and scores less.
  const std::vector<std::vector<float>> rows{
      {50, 50, 20, 20, 0.1f, 0.8f}, {52, 50, 20, 20, 0.7f, 0.2f}, {150, 80, 10, 40, 0.9f, 0.f}, {10, 10, 4, 4, 0.2f, 0.1f}};
  for (const bool anchors_last : {true, false}) {
    BoxesDecode p;
    p.anchors_last = anchors_last;
    const auto head = head_of(rows, p);
    const DetectionList l = reference::decode_yolo(head.data(), 6, 4, identity(200, 200), p);
    ASSERT_EQ(l.count, 2) << anchors_last;
    EXPECT_FLOAT_EQ(l.det[0].score, 0.9f);
    EXPECT_FLOAT_EQ(l.det[0].x0, 145.f);
    EXPECT_FLOAT_EQ(l.det[0].y1, 100.f);
    EXPECT_EQ(l.det[0].label, 0);
    EXPECT_FLOAT_EQ(l.det[1].score, 0.8f);
    EXPECT_FLOAT_EQ(l.det[1].x0, 40.f);
    EXPECT_EQ(l.det[1].label, 1);  // its second class is its best
  }
}

TEST(YoloReference, ObjectnessScalesTheBestClassAndBordersHoldTheBox) {
  BoxesDecode p;
  p.objectness = true;
  p.anchors_last = false;
  // cx, cy, w, h, objectness, classes: 0.5 * 0.9 = 0.45 kept; 0.2 * 0.9 = 0.18 not.
  const auto head = head_of({{5, 5, 20, 20, 0.5f, 0.9f, 0.1f}, {100, 100, 20, 20, 0.2f, 0.9f, 0.f}}, p);
  const DetectionList l = reference::decode_yolo(head.data(), 7, 2, identity(120, 120), p);
  ASSERT_EQ(l.count, 1);
  EXPECT_FLOAT_EQ(l.det[0].score, 0.45f);
  EXPECT_FLOAT_EQ(l.det[0].x0, 0.f);  // -5 held to the picture
  EXPECT_FLOAT_EQ(l.det[0].x1, 15.f);
}

TEST(RankReference, TiesGoToTheFirstFoundAndAtMostTheListsSizeIsKept) {
  std::vector<reference::RankCandidate> c;
  for (int i = 0; i < max_detections + 8; ++i) {
    const float x = 10.f * (max_detections + 8 - i);  // apart: nothing suppressed
    c.push_back({{x, 0, x + 5, 5, 0.5f}, max_detections + 8 - i});
  }
  const DetectionList l = reference::rank_boxes(c, 0.5f);
  ASSERT_EQ(l.count, max_detections);
  EXPECT_FLOAT_EQ(l.det[0].x0, 10.f);  // index 1: the lowest
  EXPECT_FLOAT_EQ(l.det[1].x0, 20.f);
}

TEST(RankReference, BlendingAveragesWhatAKeptBoxSuppressesWeightedByScore) {
  const std::vector<reference::RankCandidate> c{
      {{0, 0, 10, 10, 0.9f}, 0}, {{2, 0, 12, 10, 0.6f}, 1}, {{50, 50, 60, 60, 0.7f}, 2}, {{1, 1, 11, 11, 0.3f}, 3}};
  const DetectionList hard = reference::rank_boxes(c, 0.3f);
  const DetectionList blended = reference::rank_boxes(c, 0.3f, true);
  ASSERT_EQ(hard.count, 2);
  ASSERT_EQ(blended.count, 2);
  EXPECT_FLOAT_EQ(hard.det[0].x0, 0.f);
  // (0 * 0.9 + 2 * 0.6 + 1 * 0.3) / 1.8, the kept box's score kept; the lone box unchanged.
  EXPECT_NEAR(blended.det[0].x0, 1.5f / 1.8f, 1e-6);
  EXPECT_NEAR(blended.det[0].y1, (10 * 0.9f + 10 * 0.6f + 11 * 0.3f) / 1.8f, 1e-5);
  EXPECT_FLOAT_EQ(blended.det[0].score, 0.9f);
  EXPECT_FLOAT_EQ(blended.det[1].x0, 50.f);
}

// BlazeFace's heads for a 64x64 input with 2x2 cells (then one cell of 6): 14 anchors, their
// logits very low but where set.
struct BlazeHeads {
  static constexpr int anchors = 14;
  std::vector<float> values = std::vector<float>(anchors * 17, 0.f);
  BlazeHeads() { std::fill(values.begin(), values.begin() + anchors, -8.f); }
  void set(int a, float logit, float dx, float dy, float w, float h) {
    values[a] = logit;
    float* v = values.data() + anchors + a * 16;
    v[0] = dx, v[1] = dy, v[2] = w, v[3] = h;
  }
};

TEST(BlazeFaceReference, AnchorsSitAtTheirCellsCentresAndOverlapsBlend) {
  BlazeFaceDecode p;
  p.cells = 2;
  p.input_width = p.input_height = 64;
  ASSERT_EQ(blazeface_anchors(p.cells), BlazeHeads::anchors);
  BlazeHeads h;
  h.set(0, 2.f, 1, -1, 20, 10);   // cell (0, 0), centre (16, 16): box 7..27 x 10..20
  h.set(1, 1.f, 3, -1, 20, 10);   // the same cell's second anchor: 9..29, overlaps (IoU 0.82)
  h.set(7, -1.f, 0, 0, 10, 10);   // cell (1, 1), under the threshold (0.27)
  h.set(10, 3.f, 0, 0, 8, 8);     // the second grid's one cell, centre (32, 32): 28..36
  h.set(13, 500.f, 20, 20, 4, 4);  // a logit clipped at 100: score 1, box 50..54
  const DetectionList l = reference::decode_blazeface(h.values.data(), identity(64, 64), p);
  ASSERT_EQ(l.count, 3);
  EXPECT_FLOAT_EQ(l.det[0].score, 1.f);
  EXPECT_FLOAT_EQ(l.det[0].x0, 50.f);
  EXPECT_NEAR(l.det[1].score, 1 / (1 + std::exp(-3.0)), 1e-6);
  EXPECT_FLOAT_EQ(l.det[1].x0, 28.f);
  EXPECT_FLOAT_EQ(l.det[1].y1, 36.f);
  const double s0 = 1 / (1 + std::exp(-2.0)), s1 = 1 / (1 + std::exp(-1.0));
  EXPECT_NEAR(l.det[2].score, s0, 1e-6);
  EXPECT_NEAR(l.det[2].x0, (7 * s0 + 9 * s1) / (s0 + s1), 1e-4);
  EXPECT_NEAR(l.det[2].x1, (27 * s0 + 29 * s1) / (s0 + s1), 1e-4);
  EXPECT_NEAR(l.det[2].y0, 10.f, 1e-4);
}

TEST(BlazeFaceReference, FacesGoBackThroughTheLetterboxAndStopAtThePicture) {
  BlazeFaceDecode p;
  p.cells = 2;
  p.input_width = p.input_height = 64;
  BlazeHeads h;
  h.set(6, 4.f, 0, -10, 12, 12);  // cell (1, 1), centre (48, 48): box 42..54 x 32..44
  h.set(2, 5.f, 0, 0, 12, 12);    // cell (1, 0), centre (48, 16): box 42..54 x 10..22, its top in the padding
  // A 128x64 source letterboxed centred into 64x64: scale 0.5, 16 rows of padding on top.
  const Letterbox lb = make_letterbox(128, 64, 64, 64, LetterboxAlign::centre);
  const DetectionList l = reference::decode_blazeface(h.values.data(), lb, p);
  ASSERT_EQ(l.count, 2);
  EXPECT_NEAR(l.det[0].y0, 0.f, 1e-4);  // held at the picture's top edge
  EXPECT_NEAR(l.det[0].y1, 12.f, 1e-4);
  EXPECT_NEAR(l.det[1].x0, 84.f, 1e-4);
  EXPECT_NEAR(l.det[1].y0, 32.f, 1e-4);
  EXPECT_NEAR(l.det[1].x1, 108.f, 1e-4);
  EXPECT_NEAR(l.det[1].y1, 56.f, 1e-4);
}

TEST(TensorStatsReference, FiniteValuesAreSummarisedAndTheOthersCounted) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> v{1.f, -2.f, nan, 5.f, 5.f, -inf, 0.5f};
  const DetectionList l = reference::tensor_stats(v.data(), v.size());
  EXPECT_EQ(l.count, 0);
  EXPECT_FLOAT_EQ(l.summary.min, -2.f);
  EXPECT_FLOAT_EQ(l.summary.max, 5.f);
  EXPECT_EQ(l.summary.argmax, 3);  // the first of the two fives
  EXPECT_FLOAT_EQ(l.summary.mean, 9.5f / 5);
  EXPECT_EQ(l.summary.nonfinite, 2);
  const std::vector<float> none{nan, nan};
  const DetectionList empty = reference::tensor_stats(none.data(), none.size());
  EXPECT_EQ(empty.summary.argmax, -1);
  EXPECT_EQ(empty.summary.nonfinite, 2);
  EXPECT_FLOAT_EQ(empty.summary.mean, 0.f);
}

}  // namespace
}  // namespace vidpipe
