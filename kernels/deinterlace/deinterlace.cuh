// Single-rate bob deinterlacing in place: the rows of one field are kept and the other
// field's rows are rebuilt from the kept rows above and below, so a moving edge shows no
// combing (at half the vertical detail in that frame). In place is safe because a rebuilt
// row reads kept rows only.
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// `keep_top`: keep the even rows (the top field, shown first in a tff stream); else the odd.
void launch_deinterlace(std::uint8_t* frames, const YuvLayout& layout, std::size_t stride, int batch, bool keep_top,
                        cudaStream_t stream);

}  // namespace vidpipe
