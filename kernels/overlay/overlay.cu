#include "common/cuda_check.hpp"
#include "overlay/overlay.cuh"
#include "overlay/overlay_draw.hpp"

namespace vidpipe {
namespace {

// One block per frame, its detections in list order (outline, then label, then the next
// one), as the twin draws them: where one box's label covers another's, the later one wins
// on both sides. (A block per detection raced there: the GPU test caught 63 pixels once.)
__global__ void draw_detections_kernel(std::uint8_t* frames, YuvLayout l, const DetectionList* lists,
                                       GlyphAtlasView atlas, OverlayStyle style) {
  const DetectionList& list = lists[blockIdx.y];
  std::uint8_t* frame = frames + blockIdx.y * l.frame_bytes;
  for (int k = 0; k < list.count; ++k) {
    const Detection d = list.det[k];
    const PixelRect box = box_rect(d, l);
    const int n = outline_count(box, style.thickness);
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      int x, y;
      outline_at(box, style.thickness, i, x, y);
      paint(frame, l, x, y, style.y, style.u, style.v);
    }
    __syncthreads();  // the label is painted over the outline
    const LabelText text = label_text(d.score);
    const PixelRect label = label_rect(box, l, atlas, style.text_scale, text);
    const int cells = label.empty() ? 0 : label.width() * label.height();
    for (int i = threadIdx.x; i < cells; i += blockDim.x) {
      const int x = label.x0 + i % label.width(), y = label.y0 + i / label.width();
      const bool ink = text_ink(atlas, style.text_scale, text.c, label_chars, x, y, label);
      paint(frame, l, x, y, ink ? 16 : style.y, style.u, style.v);
    }
    __syncthreads();  // the next detection is painted over this one
  }
}

__global__ void draw_hud_kernel(std::uint8_t* frames, YuvLayout l, HudText hud, GlyphAtlasView atlas, int scale) {
  const PixelRect r = hud_rect(hud, l, atlas, scale);
  if (r.empty()) return;
  std::uint8_t* frame = frames + blockIdx.y * l.frame_bytes;
  const int cells = r.width() * r.height();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < cells; i += gridDim.x * blockDim.x) {
    const int x = r.x0 + i % r.width(), y = r.y0 + i / r.width();
    const std::uint8_t old = frame[l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0] + x];
    paint(frame, l, x, y, text_ink(atlas, scale, hud.text, hud.length, x, y, r) ? 235 : old / 4, 128, 128);
  }
}

}  // namespace

void launch_draw_detections(std::uint8_t* frames, const YuvLayout& layout, int batch, const DetectionList* lists,
                            const GlyphAtlasView& atlas, const OverlayStyle& style, cudaStream_t stream) {
  draw_detections_kernel<<<dim3(1, batch), 256, 0, stream>>>(frames, layout, lists, atlas, style);
  CUDA_CHECK_LAUNCH();
}

void launch_draw_hud(std::uint8_t* frames, const YuvLayout& layout, int batch, const HudText& hud,
                     const GlyphAtlasView& atlas, int scale, cudaStream_t stream) {
  if (hud.length == 0) return;
  draw_hud_kernel<<<dim3(32, batch), 256, 0, stream>>>(frames, layout, hud, atlas, scale);
  CUDA_CHECK_LAUNCH();
}

}  // namespace vidpipe
