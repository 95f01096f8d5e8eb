// Builds the ColourMatrix for a stream's colour standard and range.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

// BT.2020: the non-constant-luminance matrix (HDR10 sources decode with it; no tone mapping).
enum class ColourStandard { bt601, bt709, bt2020 };
enum class ColourRange { limited, full };

ColourMatrix make_colour_matrix(ColourStandard standard, ColourRange range);

}  // namespace vidpipe
