// CPU twins of the TinyFaceDetector kernels and of the whole network: plain loops,
// double accumulators, one image at a time.
#pragma once
#include <vector>

#include "common/image_types.hpp"
#include "tiny_face/tiny_face_net.hpp"

namespace vidpipe::reference {

void conv3x3(const float* in, int channels, int height, int width, const float* filters, const float* bias,
             int out_channels, int pad, bool leaky, float* out);
void depthwise3x3(const float* in, int channels, int height, int width, const float* filters, float* out);
void pointwise(const float* in, int channels, int pixels, const float* filters, const float* bias, int out_channels,
               bool leaky, float* out);
void maxpool2x2(const float* in, int channels, int height, int width, int stride, float* out);

// input: planar RGB [3][size][size], normalised; returns [25][cells][cells].
std::vector<float> tiny_face_forward(const TinyFaceWeights& w, const float* input, int size);

DetectionList decode_faces(const float* net_out, int cells, const Letterbox& lb, float score_threshold,
                           float iou_threshold);

}  // namespace vidpipe::reference
