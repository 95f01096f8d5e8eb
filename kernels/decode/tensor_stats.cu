#include "common/cuda_check.hpp"
#include "decode/tensor_stats.cuh"
#include "decode/tensor_stats_fold.hpp"

namespace vidpipe {
namespace {

constexpr int stats_threads = 256;

// One block per frame: each thread folds a stride of the values, then the folds merge in a tree.
__global__ void tensor_stats_kernel(const float* out, std::size_t floats, DetectionList* lists) {
  __shared__ StatsFold folds[stats_threads];
  const float* frame = out + blockIdx.x * floats;
  StatsFold mine = empty_fold();
  for (std::size_t i = threadIdx.x; i < floats; i += stats_threads) fold_value(mine, frame[i], static_cast<int>(i));
  folds[threadIdx.x] = mine;
  __syncthreads();
  for (int half = stats_threads / 2; half > 0; half >>= 1) {
    if (threadIdx.x < half) merge_fold(folds[threadIdx.x], folds[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    lists[blockIdx.x].count = 0;
    lists[blockIdx.x].summary = summary_of(folds[0]);
  }
}

}  // namespace

void launch_tensor_stats(const float* out, int batch, std::size_t floats, DetectionList* lists, cudaStream_t stream) {
  if (batch <= 0) return;
  tensor_stats_kernel<<<batch, stats_threads, 0, stream>>>(out, floats, lists);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace vidpipe
