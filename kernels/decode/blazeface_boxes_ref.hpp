// CPU twin of blazeface_boxes.cu: BlazeFace's heads to faces, ranked and blended.
#pragma once
#include "decode/decode_params.hpp"

namespace vidpipe::reference {

// `heads`: one frame's blazeface_anchors(p.cells) scores, then as many boxes of 16 values.
DetectionList decode_blazeface(const float* heads, const Letterbox& lb, const BlazeFaceDecode& p);

}  // namespace vidpipe::reference
