#include "common/cuda_check.hpp"
#include "decode/blazeface_boxes.cuh"
#include "decode/blazeface_field.hpp"
#include "decode/rank.cuh"

namespace vidpipe {
namespace {

// One block per frame: every anchor scored, those over the threshold ranked and blended (rank.cuh).
__global__ void decode_blazeface_kernel(const float* heads, Letterbox lb, BlazeFaceDecode p, DetectionList* lists) {
  __shared__ RankShared ranked;
  const int anchors = blazeface_anchors(p.cells);
  const float* scores = heads + static_cast<std::size_t>(blockIdx.x) * anchors * (1 + BlazeFaceDecode::values);
  const float* boxes = scores + anchors;
  rank_clear(ranked);
  for (int a = threadIdx.x; a < anchors; a += blockDim.x) {
    const Detection d = blazeface_box(scores, boxes, p, a, lb);
    if (d.score > p.score_threshold && in_picture(d)) rank_offer(ranked, d, a);
  }
  rank_write(ranked, p.score_threshold, p.iou_threshold, lists[blockIdx.x], true);
}

}  // namespace

void launch_decode_blazeface(const float* heads, int batch, const Letterbox& lb, const BlazeFaceDecode& p,
                             DetectionList* lists, cudaStream_t stream) {
  if (batch <= 0) return;
  decode_blazeface_kernel<<<batch, 256, 0, stream>>>(heads, lb, p, lists);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace vidpipe
