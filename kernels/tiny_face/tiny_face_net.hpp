// TinyFaceDetector (face-api's Tiny-YOLOv2 with depthwise-separable convolutions):
// its weights in the layouts the kernels and the CPU reference read, and its shape.
#pragma once
#include <array>
#include <vector>

#include "common/image_types.hpp"

namespace vidpipe {

// Layer order, from face-api's TinyYolov2Base.runMobilenet (isFirstLayerConv2d, 7 filter sizes):
//   conv0  3x3 conv 3->16, no padding, bias, leaky 0.1;   maxpool 2x2 /2 (TF 'same')
//   conv1..conv5: 3x3 depthwise (pad 1) -> 1x1 pointwise -> bias -> leaky 0.1,
//                 each followed by maxpool 2x2, stride 2 (stride 1 after conv5)
//   conv8  1x1 conv 512->25, bias: 5 anchors x (x, y, w, h, score logit) per cell.
// The weights carry no batch-norm tensors: face-api folded them into the biases.
struct TinyFaceWeights {
  static constexpr int separable_layers = 5;
  static constexpr std::array<int, 7> channels{3, 16, 32, 64, 128, 256, 512};
  static constexpr int anchors = 5;
  static constexpr int outputs = anchors * 5;  // 25

  std::vector<float> conv0_filters;  // [16][3][3][3]  out, in, ky, kx
  std::vector<float> conv0_bias;     // [16]
  struct Separable {
    int in = 0, out = 0;
    std::vector<float> depthwise;    // [in][3][3]
    std::vector<float> pointwise;    // [out][in]
    std::vector<float> bias;         // [out]
  };
  std::array<Separable, separable_layers> separable;
  std::vector<float> conv8_filters;  // [25][512]
  std::vector<float> conv8_bias;     // [25]
};

// Anchor k's width (2k) and height (2k+1) in output cells (face-api tinyFaceDetector/const.ts).
VP_HD constexpr float tiny_face_anchor(int i) {
  constexpr float sizes[10] = {1.603231f, 2.094468f, 6.041143f, 7.080126f, 2.882459f,
                               3.518061f, 4.266906f, 5.178857f, 9.041765f, 10.66308f};
  return sizes[i];
}

// Spatial size after each stage for a square input of `input` pixels.
struct TinyFaceShape {
  int input = 416;
  int conv0 = 0;            // after conv0 (valid 3x3)
  std::array<int, 6> pooled{};  // after pool k (k = 0..5); pooled[5] is the output grid
  explicit TinyFaceShape(int input_size);
  int cells() const { return pooled[5]; }
};

// The input normalisation the weights expect (face-api: mean RGB subtracted, /255).
inline Normalisation tiny_face_normalisation() {
  Normalisation n;
  n.mean[0] = 117.001f;
  n.mean[1] = 114.697f;
  n.mean[2] = 97.404f;
  for (float& s : n.scale) s = 1.f / 255.f;
  return n;
}

inline int tf_same_out(int in, int stride) { return (in + stride - 1) / stride; }

inline TinyFaceShape::TinyFaceShape(int input_size) : input(input_size) {
  conv0 = input_size - 2;
  int size = conv0;
  for (int k = 0; k < 6; ++k) {
    size = tf_same_out(size, k == 5 ? 1 : 2);
    pooled[k] = size;
  }
}

}  // namespace vidpipe
