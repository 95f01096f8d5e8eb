// Geometry of fitting a picture into the network's input without distorting it.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

// stretch: no letterbox at all, the picture fills the input (a model trained that way).
enum class LetterboxAlign { top_left, centre, stretch };

// top_left matches face-api's padToSquare(isCenterImage=false), which the
// TinyFaceDetector weights were trained with. `sample_aspect`: the width of a source pixel
// over its height (an anamorphic DVD's 16:11, 1 for square pixels).
Letterbox make_letterbox(int src_width, int src_height, int dst_width, int dst_height,
                         LetterboxAlign align, double sample_aspect = 1.0);

}  // namespace vidpipe
