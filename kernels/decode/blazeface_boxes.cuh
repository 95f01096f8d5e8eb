// BlazeFace's gathered heads to each frame's faces on the GPU.
#pragma once
#include <cuda_runtime_api.h>

#include "decode/decode_params.hpp"

namespace vidpipe {

// Frame b's heads at heads + b * blazeface_anchors(p.cells) * 17: its scores, then its boxes
// (blazeface_field.hpp); its faces into lists[b], through lb.
void launch_decode_blazeface(const float* heads, int batch, const Letterbox& lb, const BlazeFaceDecode& p,
                             DetectionList* lists, cudaStream_t stream);

}  // namespace vidpipe
