// The CPU reference's layers and box decoding against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "letterbox/letterbox.hpp"
#include "tiny_face/tiny_face_layers_ref.hpp"

namespace vidpipe {
namespace {

TEST(FaceReference, Conv3x3ValidAndPadded) {
  // 1 channel 3x3 of ones, all-ones filter, bias 1: valid -> one value 10; padded -> corners 5.
  const std::vector<float> in(9, 1.f), w(9, 1.f), b{1.f};
  std::vector<float> out(9);
  reference::conv3x3(in.data(), 1, 3, 3, w.data(), b.data(), 1, 0, false, out.data());
  EXPECT_FLOAT_EQ(out[0], 10.f);
  reference::conv3x3(in.data(), 1, 3, 3, w.data(), b.data(), 1, 1, false, out.data());
  EXPECT_FLOAT_EQ(out[0], 5.f);
  EXPECT_FLOAT_EQ(out[4], 10.f);
}

TEST(FaceReference, LeakyReluSlopeIsOneTenth) {
  const std::vector<float> in{-2.f, 3.f}, w{1.f}, b{0.f};
  std::vector<float> out(2);
  reference::pointwise(in.data(), 1, 2, w.data(), b.data(), 1, true, out.data());
  EXPECT_FLOAT_EQ(out[0], -0.2f);
  EXPECT_FLOAT_EQ(out[1], 3.f);
}

TEST(FaceReference, MaxPoolSamePaddingOnOddSizes) {
  // 3x3 -> 2x2 with stride 2: the last row/column pools alone (TF 'same').
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> out(4);
  reference::maxpool2x2(in.data(), 1, 3, 3, 2, out.data());
  EXPECT_EQ(out, (std::vector<float>{5, 6, 8, 9}));
  std::vector<float> same(9);
  reference::maxpool2x2(in.data(), 1, 3, 3, 1, same.data());
  EXPECT_EQ(same, (std::vector<float>{5, 6, 6, 8, 9, 9, 8, 9, 9}));
}

TEST(FaceReference, ShapeOf416Input) {
  const TinyFaceShape s(416);
  EXPECT_EQ(s.conv0, 414);
  EXPECT_EQ(s.pooled[0], 207);
  EXPECT_EQ(s.pooled[1], 104);
  EXPECT_EQ(s.cells(), 13);
}

TEST(FaceReference, DecodesOneBoxInSourcePixels) {
  const int cells = 13;
  std::vector<float> out(25 * cells * cells, -10.f);  // every score ~0
  const int row = 4, col = 6, anchor = 1;
  auto at = [&](int field) -> float& { return out[(anchor * 5 + field) * cells * cells + row * cells + col]; };
  at(0) = 0.f;  // sigmoid 0.5: centre of the cell
  at(1) = 0.f;
  at(2) = 0.f;  // exp 0 = 1: the anchor's own size
  at(3) = 0.f;
  at(4) = 3.f;  // score sigmoid(3) = 0.9526
  // A 832x416 frame into 416x416, top-left: scale 0.5.
  const Letterbox lb = make_letterbox(832, 416, 416, 416, LetterboxAlign::top_left);
  const DetectionList d = reference::decode_faces(out.data(), cells, lb, 0.5f, 0.4f);
  ASSERT_EQ(d.count, 1);
  const double cx = (col + 0.5) / cells * 416 / 0.5, cy = (row + 0.5) / cells * 416 / 0.5;
  // Anchor 1 is 6.041143 x 7.080126 cells (face-api's tinyFaceDetector/const.ts), written
  // out here rather than read from the code under test.
  const double w = 6.041143 / cells * 416 / 0.5, h = 7.080126 / cells * 416 / 0.5;
  EXPECT_NEAR(d.det[0].x0, cx - w / 2, 1e-3);
  EXPECT_NEAR(d.det[0].y1, cy + h / 2, 1e-3);
  EXPECT_NEAR(d.det[0].score, 1 / (1 + std::exp(-3.0)), 1e-6);
}

// Non-square pixels: a 416x416 network box maps back with a scale per axis. A 416x208 frame of
// pixels twice as wide as tall is shown 832x208: fit 0.5, so 1 stored column = 1 network column.
TEST(FaceReference, BoxesMapBackPerAxisForNonSquarePixels) {
  const int cells = 13;
  std::vector<float> out(25 * cells * cells, -10.f);
  const int row = 2, col = 6, anchor = 1;
  auto at = [&](int field) -> float& { return out[(anchor * 5 + field) * cells * cells + row * cells + col]; };
  at(0) = at(1) = at(2) = at(3) = 0.f;
  at(4) = 3.f;
  const Letterbox lb = make_letterbox(416, 208, 416, 416, LetterboxAlign::top_left, 2.0);
  const DetectionList d = reference::decode_faces(out.data(), cells, lb, 0.5f, 0.4f);
  ASSERT_EQ(d.count, 1);
  const double cx = (col + 0.5) / cells * 416 / 1.0, cy = (row + 0.5) / cells * 416 / 0.5;
  const double w = 6.041143 / cells * 416 / 1.0, h = 7.080126 / cells * 416 / 0.5;
  EXPECT_NEAR(d.det[0].x0, cx - w / 2, 1e-3);
  EXPECT_NEAR(d.det[0].x1, cx + w / 2, 1e-3);
  EXPECT_NEAR(d.det[0].y0, cy - h / 2, 1e-3);
  EXPECT_NEAR(d.det[0].y1, cy + h / 2, 1e-3);
}

TEST(FaceReference, NmsKeepsTheBestOfOverlappingBoxes) {
  const int cells = 13;
  std::vector<float> out(25 * cells * cells, -10.f);
  auto set = [&](int anchor, int row, int col, float score) {
    for (int f = 0; f < 4; ++f) out[(anchor * 5 + f) * cells * cells + row * cells + col] = 0.f;
    out[(anchor * 5 + 4) * cells * cells + row * cells + col] = score;
  };
  set(1, 5, 5, 2.f);   // same cell, two similar anchors: overlapping boxes
  set(3, 5, 5, 1.f);
  set(1, 10, 1, 1.5f);  // far away: kept
  const Letterbox lb = make_letterbox(416, 416, 416, 416, LetterboxAlign::top_left);
  const DetectionList d = reference::decode_faces(out.data(), cells, lb, 0.5f, 0.4f);
  ASSERT_EQ(d.count, 2);
  EXPECT_NEAR(d.det[0].score, 1 / (1 + std::exp(-2.0)), 1e-6);
  EXPECT_NEAR(d.det[1].score, 1 / (1 + std::exp(-1.5)), 1e-6);
}

}  // namespace
}  // namespace vidpipe
