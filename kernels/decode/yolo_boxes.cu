#include "common/cuda_check.hpp"
#include "decode/rank.cuh"
#include "decode/yolo_boxes.cuh"
#include "decode/yolo_field.hpp"

namespace vidpipe {
namespace {

// One block per frame: every anchor scored, those over the threshold ranked (rank.cuh).
__global__ void decode_yolo_kernel(const float* head, int fields, int anchors, Letterbox lb, BoxesDecode p,
                                   DetectionList* lists) {
  __shared__ RankShared ranked;
  const float* frame = head + static_cast<std::size_t>(blockIdx.x) * fields * anchors;
  rank_clear(ranked);
  for (int a = threadIdx.x; a < anchors; a += blockDim.x) {
    const Detection d = yolo_box(frame, fields, anchors, p, a, lb);
    if (d.score > p.score_threshold && in_picture(d)) rank_offer(ranked, d, a);
  }
  rank_write(ranked, p.score_threshold, p.iou_threshold, lists[blockIdx.x]);
}

}  // namespace

void launch_decode_yolo(const float* head, int batch, int fields, int anchors, const Letterbox& lb,
                        const BoxesDecode& p, DetectionList* lists, cudaStream_t stream) {
  if (batch <= 0) return;
  decode_yolo_kernel<<<batch, 256, 0, stream>>>(head, fields, anchors, lb, p, lists);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace vidpipe
