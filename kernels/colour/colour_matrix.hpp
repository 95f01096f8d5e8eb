// Builds the ColourMatrix for a stream's colour standard and range.
#pragma once
#include "common/image_types.hpp"

namespace vidpipe {

enum class ColourStandard { bt601, bt709 };
enum class ColourRange { limited, full };

ColourMatrix make_colour_matrix(ColourStandard standard, ColourRange range);

}  // namespace vidpipe
