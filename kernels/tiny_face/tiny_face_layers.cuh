// CUDA kernels for TinyFaceDetector's layers, NCHW float, `batch` images at once.
// Own kernels rather than cuDNN/cuBLAS: the whole network is ~0.2 GFLOP per 416x416
// frame, so at the batch sizes a live pipeline uses launch count, not arithmetic,
// is what costs (docs/BENCHMARKS.md has the per-frame times).
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// out[K][H+2p-2][W+2p-2] = leaky?(conv3x3(in[C][H][W], w[K][C][3][3]) + bias), zero padding p.
void launch_conv3x3(const float* in, int batch, int channels, int height, int width, const float* filters,
                    const float* bias, int out_channels, int pad, bool leaky, float* out, cudaStream_t stream);

// Depthwise 3x3, zero padding 1, no bias: out[C][H][W].
void launch_depthwise3x3(const float* in, int batch, int channels, int height, int width, const float* filters,
                         float* out, cudaStream_t stream);

// 1x1 convolution: out[K][HW] = leaky?(w[K][C] . in[C][HW] + bias).
void launch_pointwise(const float* in, int batch, int channels, int pixels, const float* filters, const float* bias,
                      int out_channels, bool leaky, float* out, cudaStream_t stream);

// 2x2 max pool with TensorFlow 'same' padding: out size ceil(in / stride).
void launch_maxpool2x2(const float* in, int batch, int channels, int height, int width, int stride, float* out,
                       cudaStream_t stream);

// Network output [25][cells][cells] per image -> boxes above `score_threshold`, in
// source-frame pixels via `lb`, greedy NMS at `iou_threshold`. One list per image.
void launch_decode_faces(const float* net_out, int batch, int cells, const Letterbox& lb, float score_threshold,
                         float iou_threshold, DetectionList* lists, cudaStream_t stream);

}  // namespace vidpipe
