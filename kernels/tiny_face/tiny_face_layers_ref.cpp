#include "tiny_face/tiny_face_layers_ref.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "decode/rank_ref.hpp"

namespace vidpipe::reference {

static double leaky01(double v) { return v > 0 ? v : 0.1 * v; }

void conv3x3(const float* in, int C, int H, int W, const float* w, const float* bias, int K, int pad, bool leaky,
             float* out) {
  const int Ho = H + 2 * pad - 2, Wo = W + 2 * pad - 2;
  for (int k = 0; k < K; ++k)
    for (int y = 0; y < Ho; ++y)
      for (int x = 0; x < Wo; ++x) {
        double acc = bias[k];
        for (int c = 0; c < C; ++c)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              const int sy = y + ky - pad, sx = x + kx - pad;
              if (sy >= 0 && sy < H && sx >= 0 && sx < W)
                acc += double(in[(std::size_t(c) * H + sy) * W + sx]) * w[((k * C + c) * 3 + ky) * 3 + kx];
            }
        out[(std::size_t(k) * Ho + y) * Wo + x] = static_cast<float>(leaky ? leaky01(acc) : acc);
      }
}

void depthwise3x3(const float* in, int C, int H, int W, const float* w, float* out) {
  for (int c = 0; c < C; ++c)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        double acc = 0;
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            const int sy = y + ky - 1, sx = x + kx - 1;
            if (sy >= 0 && sy < H && sx >= 0 && sx < W)
              acc += double(in[(std::size_t(c) * H + sy) * W + sx]) * w[c * 9 + ky * 3 + kx];
          }
        out[(std::size_t(c) * H + y) * W + x] = static_cast<float>(acc);
      }
}

void pointwise(const float* in, int C, int P, const float* w, const float* bias, int K, bool leaky, float* out) {
  std::vector<double> acc(P);
  for (int k = 0; k < K; ++k) {
    std::fill(acc.begin(), acc.end(), double(bias[k]));
    for (int c = 0; c < C; ++c) {
      const double wk = w[std::size_t(k) * C + c];
      const float* src = in + std::size_t(c) * P;
      for (int p = 0; p < P; ++p) acc[p] += wk * src[p];
    }
    for (int p = 0; p < P; ++p) out[std::size_t(k) * P + p] = static_cast<float>(leaky ? leaky01(acc[p]) : acc[p]);
  }
}

void maxpool2x2(const float* in, int C, int H, int W, int stride, float* out) {
  const int Ho = tf_same_out(H, stride), Wo = tf_same_out(W, stride);
  for (int c = 0; c < C; ++c)
    for (int y = 0; y < Ho; ++y)
      for (int x = 0; x < Wo; ++x) {
        float m = -std::numeric_limits<float>::infinity();
        for (int dy = 0; dy < 2; ++dy)
          for (int dx = 0; dx < 2; ++dx) {
            const int sy = y * stride + dy, sx = x * stride + dx;
            if (sy < H && sx < W) m = std::max(m, in[(std::size_t(c) * H + sy) * W + sx]);
          }
        out[(std::size_t(c) * Ho + y) * Wo + x] = m;
      }
}

std::vector<float> tiny_face_forward(const TinyFaceWeights& w, const float* input, int size) {
  const TinyFaceShape shape(size);
  const auto& ch = TinyFaceWeights::channels;
  std::vector<float> a(std::size_t(ch[1]) * shape.conv0 * shape.conv0), b;
  conv3x3(input, ch[0], size, size, w.conv0_filters.data(), w.conv0_bias.data(), ch[1], 0, true, a.data());
  int s = shape.conv0;
  for (int layer = 0; layer <= TinyFaceWeights::separable_layers; ++layer) {
    const int c = ch[layer + 1];
    const int stride = layer == 5 ? 1 : 2;
    const int pooled = tf_same_out(s, stride);
    b.assign(std::size_t(c) * pooled * pooled, 0.f);
    maxpool2x2(a.data(), c, s, s, stride, b.data());
    s = pooled;
    if (layer == TinyFaceWeights::separable_layers) {
      a.swap(b);
      break;
    }
    const auto& sep = w.separable[layer];
    std::vector<float> dw(b.size());
    depthwise3x3(b.data(), sep.in, s, s, sep.depthwise.data(), dw.data());
    a.assign(std::size_t(sep.out) * s * s, 0.f);
    pointwise(dw.data(), sep.in, s * s, sep.pointwise.data(), sep.bias.data(), sep.out, true, a.data());
  }
  std::vector<float> out(std::size_t(TinyFaceWeights::outputs) * s * s);
  pointwise(a.data(), ch[6], s * s, w.conv8_filters.data(), w.conv8_bias.data(), TinyFaceWeights::outputs, false,
            out.data());
  return out;
}

static double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

DetectionList decode_faces(const float* out, int cells, const Letterbox& lb, float score_threshold,
                           float iou_threshold) {
  std::vector<RankCandidate> cands;
  const int anchors = TinyFaceWeights::anchors;
  for (int i = 0; i < cells * cells * anchors; ++i) {
    const int anchor = i % anchors, cell = i / anchors, row = cell / cells, col = cell % cells;
    auto at = [&](int field) { return double(out[(std::size_t(anchor * 5 + field) * cells + row) * cells + col]); };
    const double s = sigmoid(at(4));
    if (!(s > score_threshold)) continue;
    const double size = lb.dst_width;
    const double cx = (col + sigmoid(at(0))) / cells * size, cy = (row + sigmoid(at(1))) / cells * size;
    const double w = std::exp(at(2)) * tiny_face_anchor(2 * anchor) / cells * size;
    const double h = std::exp(at(3)) * tiny_face_anchor(2 * anchor + 1) / cells * size;
    Detection d;
    d.x0 = static_cast<float>((cx - w / 2 - lb.pad_x) / lb.scale_x);
    d.y0 = static_cast<float>((cy - h / 2 - lb.pad_y) / lb.scale_y);
    d.x1 = static_cast<float>((cx + w / 2 - lb.pad_x) / lb.scale_x);
    d.y1 = static_cast<float>((cy + h / 2 - lb.pad_y) / lb.scale_y);
    d.score = static_cast<float>(s);
    d.label = 0;
    cands.push_back({d, i});
  }
  return rank_boxes(std::move(cands), iou_threshold);
}

}  // namespace vidpipe::reference
