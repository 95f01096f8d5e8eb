// Overlay on the frame in its native YUV planes, before the download: face boxes
// with score labels, and the HUD (fps, copy-wait share).
#pragma once
#include <cuda_runtime_api.h>

#include "common/image_types.hpp"

namespace vidpipe {

// `lists` (device) has one DetectionList per frame of the batch.
void launch_draw_detections(std::uint8_t* frames, const YuvLayout& layout, int batch, const DetectionList* lists,
                            const GlyphAtlasView& atlas, const OverlayStyle& style, cudaStream_t stream);

void launch_draw_hud(std::uint8_t* frames, const YuvLayout& layout, int batch, const HudText& hud,
                     const GlyphAtlasView& atlas, int scale, cudaStream_t stream);

}  // namespace vidpipe
