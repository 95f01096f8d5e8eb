// CPU twin of yolo_boxes.cu: a YOLO-style head to boxes, ranked and suppressed.
#pragma once
#include "decode/decode_params.hpp"

namespace vidpipe::reference {

// `head`: one frame's [4+C(+1), A] (p.anchors_last) or [A, 4+C(+1)] floats; `fields`: 4+C(+1).
DetectionList decode_yolo(const float* head, int fields, int anchors, const Letterbox& lb, const BoxesDecode& p);

}  // namespace vidpipe::reference
