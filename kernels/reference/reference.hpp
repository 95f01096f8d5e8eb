// CPU twins of the GPU kernels: plain loops in double precision. The tests hold the
// kernels to these, and `device: cpu` runs the pipeline on them.
#pragma once
#include <cstddef>
#include <cstdint>

#include "../image_types.hpp"

namespace vidpipe::reference {

// One frame (no batch): frame points at the start of a buffer laid out as `layout`.
void yuv_to_bgr(const std::uint8_t* frame, const YuvLayout& layout, const ColourMatrix& m,
                std::uint8_t* bgr);

void resize_letterbox(const std::uint8_t* src, int src_width, int src_height,
                      const Letterbox& lb, std::uint8_t* dst);

void normalise(const std::uint8_t* src, int width, int height, const Normalisation& norm,
               float* dst);

void draw_detections(std::uint8_t* frame, const YuvLayout& layout, const DetectionList& list,
                     const GlyphAtlasView& atlas, const OverlayStyle& style);

void draw_hud(std::uint8_t* frame, const YuvLayout& layout, const HudText& hud, const GlyphAtlasView& atlas,
              int scale);

}  // namespace vidpipe::reference
