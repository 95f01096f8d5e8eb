// The output decoders' kernels against their CPU twins on made-up tensors: maps of
// overlapping blobs (regions of any shape, merged from several threads at once) and sparse
// YOLO heads, BlazeFace heads with clusters of overlapping faces (blended), batched, letterboxed.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "decode/blazeface_boxes.cuh"
#include "decode/blazeface_boxes_ref.hpp"
#include "decode/heatmap_boxes.cuh"
#include "decode/tensor_stats.cuh"
#include "decode/tensor_stats_ref.hpp"
#include "decode/heatmap_boxes_ref.hpp"
#include "decode/yolo_boxes.cuh"
#include "decode/yolo_boxes_ref.hpp"
#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "letterbox/letterbox.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

void expect_same_lists(const DetectionList& gpu, const DetectionList& ref, int frame) {
  ASSERT_EQ(gpu.count, ref.count) << "frame " << frame;
  for (int i = 0; i < ref.count; ++i) {
    EXPECT_NEAR(gpu.det[i].x0, ref.det[i].x0, 1e-2) << "frame " << frame << " box " << i;
    EXPECT_NEAR(gpu.det[i].y0, ref.det[i].y0, 1e-2) << "frame " << frame << " box " << i;
    EXPECT_NEAR(gpu.det[i].x1, ref.det[i].x1, 1e-2) << "frame " << frame << " box " << i;
    EXPECT_NEAR(gpu.det[i].y1, ref.det[i].y1, 1e-2) << "frame " << frame << " box " << i;
    EXPECT_NEAR(gpu.det[i].score, ref.det[i].score, 1e-4) << "frame " << frame << " box " << i;
    EXPECT_EQ(gpu.det[i].label, ref.det[i].label) << "frame " << frame << " box " << i;
  }
}

// Blobs of a few probabilities, overlapping: unions of rectangles, some touching only at corners.
std::vector<float> blob_maps(int batch, int w, int h, unsigned seed) {
  std::mt19937 rng(seed);
  const float levels[] = {0.2f, 0.45f, 0.62f, 0.81f, 0.97f};
  std::vector<float> m(static_cast<std::size_t>(batch) * w * h, 0.f);
  for (int b = 0; b < batch; ++b)
    for (int k = 0; k < 60; ++k) {
      const int x0 = rng() % w, y0 = rng() % h, x1 = std::min(w, x0 + 1 + int(rng() % (w / 6))),
                y1 = std::min(h, y0 + 1 + int(rng() % (h / 10)));
      const float v = levels[rng() % 5];
      for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) m[(static_cast<std::size_t>(b) * h + y) * w + x] = v;
    }
  return m;
}

struct MapCase {
  int batch, width, height;
};
class HeatmapGpu : public ::testing::TestWithParam<MapCase> {};

TEST_P(HeatmapGpu, MatchesReference) {
  REQUIRE_GPU();
  const MapCase c = GetParam();
  const auto maps = blob_maps(c.batch, c.width, c.height, 11);
  const Letterbox lb = make_letterbox(1920, 1080, c.width, c.height, LetterboxAlign::centre);
  const HeatmapDecode p;
  const std::size_t pixels = maps.size();
  cuda::DeviceBuffer d_map = to_device(maps), labels(pixels * 4), region_of(pixels * 4),
                     regions(c.batch * heatmap_max_regions * heatmap_region_bytes()), counts(c.batch * 4),
                     lists = poisoned(c.batch * sizeof(DetectionList));
  launch_decode_heatmap(d_map.as<float>(), c.batch, c.width, c.height, lb, p,
                        {labels.as<int>(), region_of.as<int>(), regions.as(), counts.as<int>()},
                        lists.as<DetectionList>(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<DetectionList>(lists, c.batch);
  int found = 0;
  for (int b = 0; b < c.batch; ++b) {
    const DetectionList ref = reference::decode_heatmap(maps.data() + b * c.width * c.height, c.width, c.height, lb, p);
    found += ref.count;
    expect_same_lists(gpu[b], ref, b);
  }
  EXPECT_GT(found, 0);  // the made-up maps do hold regions the decoder keeps
}

INSTANTIATE_TEST_SUITE_P(Sizes, HeatmapGpu,
                         ::testing::Values(MapCase{3, 1280, 736}, MapCase{1, 640, 640}, MapCase{2, 101, 67}),
                         [](const auto& info) {
                           return std::to_string(info.param.batch) + "x" + std::to_string(info.param.width) + "x" +
                                  std::to_string(info.param.height);
                         });

// Sparse heads: one anchor in 40 has a class (and objectness) over the threshold, many overlapping.
std::vector<float> yolo_heads(int batch, int fields, int anchors, const BoxesDecode& p, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> low(0.f, 0.2f), high(0.3f, 1.f), pos(0.f, 640.f), size(4.f, 120.f);
  std::vector<float> h(static_cast<std::size_t>(batch) * fields * anchors);
  const int first_class = p.objectness ? 5 : 4;
  for (int b = 0; b < batch; ++b)
    for (int a = 0; a < anchors; ++a) {
      const bool hot = rng() % 40 == 0;
      const int hot_class = first_class + static_cast<int>(rng() % (fields - first_class));
      for (int f = 0; f < fields; ++f) {
        const float v = f < 2 ? pos(rng) : f < 4 ? size(rng) : (hot && (f == hot_class || f == 4)) ? high(rng) : low(rng);
        const std::size_t at = p.anchors_last ? static_cast<std::size_t>(f) * anchors + a : static_cast<std::size_t>(a) * fields + f;
        h[static_cast<std::size_t>(b) * fields * anchors + at] = v;
      }
    }
  return h;
}

TEST(YoloGpu, MatchesReferenceInBothLayouts) {
  REQUIRE_GPU();
  const int batch = 3, anchors = 8400;
  for (const bool objectness : {false, true}) {
    const int fields = objectness ? 85 : 84;
    BoxesDecode p;
    p.objectness = objectness;
    p.anchors_last = !objectness;  // YOLOv8's layout, and YOLOv5's
    const auto heads = yolo_heads(batch, fields, anchors, p, 5);
    const Letterbox lb = make_letterbox(1280, 720, 640, 640, LetterboxAlign::centre);
    cuda::DeviceBuffer d_heads = to_device(heads), lists = poisoned(batch * sizeof(DetectionList));
    launch_decode_yolo(d_heads.as<float>(), batch, fields, anchors, lb, p, lists.as<DetectionList>(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const auto gpu = download<DetectionList>(lists, batch);
    for (int b = 0; b < batch; ++b) {
      const DetectionList ref =
          reference::decode_yolo(heads.data() + static_cast<std::size_t>(b) * fields * anchors, fields, anchors, lb, p);
      EXPECT_GT(ref.count, 0);
      expect_same_lists(gpu[b], ref, b);
    }
  }
}

// BlazeFace heads of the 256 model: a few faces each seen by several neighbouring anchors
// (as the network sees them), the other anchors' logits low.
std::vector<float> blazeface_heads(int batch, const BlazeFaceDecode& p, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> low(-9.f, -1.f), high(0.5f, 6.f), jitter(-4.f, 4.f), size(20.f, 90.f);
  const int anchors = blazeface_anchors(p.cells), per_frame = anchors * (1 + BlazeFaceDecode::values);
  std::vector<float> h(static_cast<std::size_t>(batch) * per_frame);
  for (int b = 0; b < batch; ++b) {
    float* scores = h.data() + static_cast<std::size_t>(b) * per_frame;
    float* boxes = scores + anchors;
    for (int a = 0; a < anchors; ++a) scores[a] = low(rng);
    for (int face = 0; face < 6; ++face) {
      const int centre = static_cast<int>(rng() % (2 * p.cells * p.cells - 2));
      const float w = size(rng);
      for (int a = centre; a < centre + 3; ++a) {  // a cell's two anchors and the next cell's first
        scores[a] = high(rng);
        float* v = boxes + a * BlazeFaceDecode::values;
        v[0] = jitter(rng), v[1] = jitter(rng), v[2] = w + jitter(rng), v[3] = w * 1.2f + jitter(rng);
      }
    }
  }
  return h;
}

TEST(BlazeFaceGpu, MatchesReferenceWithBlendedOverlaps) {
  REQUIRE_GPU();
  const int batch = 4;
  BlazeFaceDecode p;
  const auto heads = blazeface_heads(batch, p, 9);
  const Letterbox lb = make_letterbox(1920, 1080, 256, 256, LetterboxAlign::centre);
  cuda::DeviceBuffer d_heads = to_device(heads), lists = poisoned(batch * sizeof(DetectionList));
  launch_decode_blazeface(d_heads.as<float>(), batch, lb, p, lists.as<DetectionList>(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<DetectionList>(lists, batch);
  const std::size_t per_frame = heads.size() / batch;
  for (int b = 0; b < batch; ++b) {
    const DetectionList ref = reference::decode_blazeface(heads.data() + b * per_frame, lb, p);
    EXPECT_GT(ref.count, 2);
    expect_same_lists(gpu[b], ref, b);
  }
}

// Frames of a classifier's logits and of a map, with NaNs, infinities and a maximum that
// occurs twice (the first index wins on both sides).
TEST(TensorStatsGpu, MatchesReference) {
  REQUIRE_GPU();
  for (const std::size_t floats : {std::size_t{1}, std::size_t{1000}, std::size_t{160 * 96 * 2}}) {
    const int batch = 3;
    std::mt19937 rng(static_cast<unsigned>(floats));
    std::normal_distribution<float> logit(0.f, 3.f);
    std::vector<float> out(batch * floats);
    for (float& v : out) v = logit(rng);
    for (int b = 0; b < batch && floats > 10; ++b) {
      float* frame = out.data() + b * floats;
      frame[floats / 3] = frame[floats - 2] = 40.f;
      frame[b + 1] = std::numeric_limits<float>::quiet_NaN();
      if (b == 2) frame[5] = -std::numeric_limits<float>::infinity();
    }
    cuda::DeviceBuffer d_out = to_device(out), lists = poisoned(batch * sizeof(DetectionList));
    launch_tensor_stats(d_out.as<float>(), batch, floats, lists.as<DetectionList>(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const auto gpu = download<DetectionList>(lists, batch);
    for (int b = 0; b < batch; ++b) {
      const TensorSummary want = reference::tensor_stats(out.data() + b * floats, floats).summary;
      const TensorSummary& got = gpu[b].summary;
      EXPECT_EQ(gpu[b].count, 0);
      EXPECT_EQ(got.min, want.min) << floats << "/" << b;
      EXPECT_EQ(got.max, want.max) << floats << "/" << b;
      EXPECT_EQ(got.argmax, want.argmax) << floats << "/" << b;
      EXPECT_EQ(got.nonfinite, want.nonfinite) << floats << "/" << b;
      EXPECT_NEAR(got.mean, want.mean, 1e-6) << floats << "/" << b;
    }
  }
}

}  // namespace
}  // namespace vidpipe
