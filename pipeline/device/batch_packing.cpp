// How a batch sits in the executors' buffers, and the per-input sizes they share.
#include <algorithm>

#include "device/batch_packing.hpp"

#include "colour/colour_matrix.hpp"
#include "letterbox/letterbox.hpp"

namespace vidpipe {

ColourMatrix matrix_for(const FrameColour& colour) {
  return make_colour_matrix(colour.standard, colour.range);
}

OverlayStyle overlay_style_for(const YuvLayout& l) {
  OverlayStyle s;
  s.thickness = std::max(2, l.height / 360);
  s.text_scale = std::max(1, l.height / 540);
  return s;
}

int hud_scale_for(const YuvLayout& l) { return std::max(1, l.height / 360); }

std::vector<FrameRun> runs_of(std::span<const DecodedFrame> frames) {
  std::vector<FrameRun> runs;
  for (int i = 0; i < static_cast<int>(frames.size()); ++i) {
    if (runs.empty() || runs.back().source != frames[i].source)
      runs.push_back({i, 0, frames[i].source});
    ++runs.back().count;
  }
  return runs;
}

BatchPacking pack_batch(std::span<const DecodedFrame> frames, const std::vector<YuvLayout>& layouts,
                        const std::vector<YuvLayout>& out_layouts, const std::vector<YuvLayout>& decoded_layouts) {
  BatchPacking p;
  for (const DecodedFrame& f : frames) {
    const YuvLayout& l = layouts.at(f.source);
    p.yuv.push_back(p.yuv_bytes);
    p.bgr.push_back(p.bgr_bytes);
    p.out.push_back(p.out_bytes);
    p.decoded.push_back(p.decoded_bytes);
    p.decoded_bytes += decoded_layouts.empty() ? 0 : decoded_layouts.at(f.source).frame_bytes;
    p.yuv_bytes += l.frame_bytes;
    p.bgr_bytes += static_cast<std::size_t>(l.width) * l.height * 3;
    p.out_bytes += output_layout(layouts, out_layouts, f.source).frame_bytes;
  }
  return p;
}

BatchPacking pack_batch(std::span<const DecodedFrame> frames, const ExecutorOptions& o) {
  BatchPacking p = pack_batch(frames, o.layouts, o.out_layouts, o.decoded_layouts);
  for (const DecodedFrame& f : frames) {
    p.narrowed.push_back(p.narrowed_bytes);
    if (o.narrowed_into(f.source) == ExecutorOptions::FrameBuffer::narrowed && o.wide(f.source))
      p.narrowed_bytes += o.narrowed(f.source).frame_bytes;
  }
  return p;
}

std::size_t narrowed_buffer_bytes(const ExecutorOptions& o, int batch) {
  std::size_t most = 0;
  for (int s = 0; s < static_cast<int>(o.decoded_layouts.size()); ++s)
    if (o.wide(s) && o.turns(s) != 0) most = std::max(most, o.narrowed(s).frame_bytes);
  return most * batch;
}

std::size_t BatchPacking::at(ExecutorOptions::FrameBuffer buffer, int frame) const {
  switch (buffer) {
    case ExecutorOptions::FrameBuffer::decoded: return decoded.at(frame);
    case ExecutorOptions::FrameBuffer::narrowed: return narrowed.at(frame);
    case ExecutorOptions::FrameBuffer::yuv: break;
  }
  return yuv.at(frame);
}

const YuvLayout& output_layout(const std::vector<YuvLayout>& layouts, const std::vector<YuvLayout>& out_layouts,
                               int source) {
  return out_layouts.empty() ? layouts.at(source) : out_layouts.at(source);
}

std::vector<Letterbox> letterboxes_for(const ExecutorOptions& o) {
  std::vector<Letterbox> boxes;
  for (int s = 0; s < static_cast<int>(o.layouts.size()); ++s)
    boxes.push_back(make_letterbox(o.layouts[s].width, o.layouts[s].height, o.gpu.preprocess.width,
                                   o.gpu.preprocess.height, o.gpu.preprocess.align, o.sample_aspect(s)));
  return boxes;
}

std::size_t max_frame_bytes(const std::vector<YuvLayout>& layouts) {
  std::size_t m = 0;
  for (const YuvLayout& l : layouts) m = std::max(m, l.frame_bytes);
  return m;
}

std::size_t max_pixels(const std::vector<YuvLayout>& layouts) {
  std::size_t m = 0;
  for (const YuvLayout& l : layouts) m = std::max(m, static_cast<std::size_t>(l.width) * l.height);
  return m;
}

}  // namespace vidpipe
