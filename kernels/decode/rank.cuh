// The last step of every box decoder on the GPU, written once: candidates offered by any
// thread of a block, sorted best first (bitonic; ties by the candidate's index, so the order
// does not depend on which thread found a box first), then greedy non-maximum suppression into
// one frame's DetectionList. One block per frame; every thread of the block calls each step.
// With `blend` (MediaPipe's weighted NMS, as BlazeFace is trained for), a kept box is the
// score-weighted mean of itself and the boxes it suppresses, keeping its own score.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

inline constexpr int rank_slots = 1024;  // candidates kept per frame (only an absurdly low threshold fills it)

struct RankShared {
  float score[rank_slots];
  int order[rank_slots];
  Detection box[rank_slots];
  bool keep[rank_slots];
  int index[rank_slots];
  short owner[rank_slots];  // blend: the sorted position of the box that suppressed this one
  int found;
};

__device__ inline float rank_iou(const Detection& a, const Detection& b) {
  const float w = fmaxf(0.f, fminf(a.x1, b.x1) - fmaxf(a.x0, b.x0));
  const float h = fmaxf(0.f, fminf(a.y1, b.y1) - fmaxf(a.y0, b.y0));
  const float inter = w * h;
  return inter / ((a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter);
}

__device__ inline void rank_clear(RankShared& s) {
  for (int i = threadIdx.x; i < rank_slots; i += blockDim.x) {
    s.score[i] = -1.f;
    s.order[i] = i;
    s.index[i] = 0x7fffffff;
  }
  if (threadIdx.x == 0) s.found = 0;
  __syncthreads();
}

__device__ inline void rank_offer(RankShared& s, const Detection& d, int index) {
  const int slot = atomicAdd(&s.found, 1);
  if (slot >= rank_slots) return;
  s.box[slot] = d;
  s.score[slot] = d.score;
  s.index[slot] = index;
}

// The kept box at sorted position i blended with those it suppressed, in sorted order (the
// twin's order: the same sums). Thread 0 alone: a handful of boxes, each near a few others.
__device__ inline Detection rank_blend(const RankShared& s, int i, float score_threshold) {
  const Detection& best = s.box[s.order[i]];
  float x0 = best.x0 * best.score, y0 = best.y0 * best.score, x1 = best.x1 * best.score, y1 = best.y1 * best.score;
  float weight = best.score;
  for (int j = i + 1; j < rank_slots && s.score[s.order[j]] > score_threshold; ++j) {
    if (s.owner[j] != i) continue;
    const Detection& d = s.box[s.order[j]];
    x0 += d.x0 * d.score, y0 += d.y0 * d.score, x1 += d.x1 * d.score, y1 += d.y1 * d.score;
    weight += d.score;
  }
  return {x0 / weight, y0 / weight, x1 / weight, y1 / weight, best.score, best.label};
}

// Boxes overlapping a better one by more than `iou_threshold` are dropped (above 1: none is).
__device__ inline void rank_write(RankShared& s, float score_threshold, float iou_threshold, DetectionList& out,
                                  bool blend = false) {
  __syncthreads();
  for (int size = 2; size <= rank_slots; size <<= 1)
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      for (int i = threadIdx.x; i < rank_slots; i += blockDim.x) {
        const int j = i ^ stride;
        if (j <= i) continue;
        const int a = s.order[i], c = s.order[j];
        const bool a_first = s.score[a] > s.score[c] || (s.score[a] == s.score[c] && s.index[a] < s.index[c]);
        const bool descending_block = (i & size) == 0;
        if (descending_block != a_first) {
          s.order[i] = c;
          s.order[j] = a;
        }
      }
      __syncthreads();
    }
  for (int i = threadIdx.x; i < rank_slots; i += blockDim.x) {
    s.keep[i] = s.score[s.order[i]] > score_threshold;
    s.owner[i] = -1;
  }
  __syncthreads();
  // Thread 0 writes the list. Its count lives in a register, not shared memory: with
  // a shared count the compiler loaded it in every thread ahead of the threadIdx test,
  // a read racing thread 0's increment (compute-sanitizer racecheck found it).
  int kept = 0;
  for (int i = 0; i < rank_slots; ++i) {
    if (!s.keep[i]) {
      if (s.score[s.order[i]] <= score_threshold) break;  // sorted: the rest are below too
      continue;
    }
    const Detection& best = s.box[s.order[i]];
    for (int j = i + 1 + threadIdx.x; j < rank_slots; j += blockDim.x)
      if (s.keep[j] && rank_iou(best, s.box[s.order[j]]) > iou_threshold) {
        s.keep[j] = false;
        s.owner[j] = static_cast<short>(i);
      }
    __syncthreads();
    if (threadIdx.x == 0 && kept < max_detections) out.det[kept++] = blend ? rank_blend(s, i, score_threshold) : best;
    __syncthreads();  // the blend reads owners that the next box's pass writes
  }
  if (threadIdx.x == 0) out.count = kept;
}

}  // namespace vidpipe
