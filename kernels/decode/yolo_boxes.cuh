// A YOLO-style head ([N, 4+C(+1), A] or [N, A, 4+C(+1)]) to each frame's boxes on the GPU.
#pragma once
#include <cuda_runtime_api.h>

#include "decode/decode_params.hpp"

namespace vidpipe {

// Frame b's head at head + b * fields * anchors; its boxes into lists[b], through lb.
void launch_decode_yolo(const float* head, int batch, int fields, int anchors, const Letterbox& lb,
                        const BoxesDecode& p, DetectionList* lists, cudaStream_t stream);

}  // namespace vidpipe
