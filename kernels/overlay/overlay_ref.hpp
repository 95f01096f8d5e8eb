// CPU twin of overlay/overlay.cu.
// The CPU twin: plain loops in double precision, independent of the kernel's
// arithmetic. The tests hold the kernel to it, and `device: cpu` runs the pipeline on it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe::reference {

void draw_detections(std::uint8_t* frame, const YuvLayout& layout, const DetectionList& list,
                     const GlyphAtlasView& atlas, const OverlayStyle& style);

void draw_hud(std::uint8_t* frame, const YuvLayout& layout, const HudText& hud, const GlyphAtlasView& atlas,
              int scale);

}  // namespace vidpipe::reference
