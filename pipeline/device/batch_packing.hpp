// How a batch of frames sits in an executor's buffers: runs of frames of one input, each
// frame's offsets in the packed buffers, and the per-input sizes both executors share.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "common/image_types.hpp"
#include "device/executor.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

// Consecutive frames of one input in a batch: they share layout, letterbox and colour
// matrix, so their preprocessing and overlay kernels run as one launch.
struct FrameRun {
  int first = 0, count = 0, source = 0;
};
std::vector<FrameRun> runs_of(std::span<const DecodedFrame> frames);

// Where frame i of a batch starts in a slot's packed buffers, and how big they are.
struct BatchPacking {
  // Byte offsets; out: in the scaled outputs' buffer; decoded, narrowed: in the buffers a
  // frame passes through before the working one (ExecutorOptions::FrameBuffer).
  std::vector<std::size_t> yuv, bgr, out, decoded, narrowed;
  std::size_t yuv_bytes = 0, bgr_bytes = 0, out_bytes = 0, decoded_bytes = 0, narrowed_bytes = 0;
  std::size_t at(ExecutorOptions::FrameBuffer buffer, int frame) const;
};
BatchPacking pack_batch(std::span<const DecodedFrame> frames, const std::vector<YuvLayout>& layouts,
                        const std::vector<YuvLayout>& out_layouts = {},
                        const std::vector<YuvLayout>& decoded_layouts = {});
// The packing of a batch as an executor with these options lays it out.
BatchPacking pack_batch(std::span<const DecodedFrame> frames, const ExecutorOptions& options);
// The bytes a slot's narrowed buffer needs: wide inputs that are also turned, `batch` frames.
std::size_t narrowed_buffer_bytes(const ExecutorOptions& options, int batch);

// The layout input `source`'s results are downloaded in: its entry of out_layouts
// (sink.width/height), or the decoded layout where there is none.
const YuvLayout& output_layout(const std::vector<YuvLayout>& layouts, const std::vector<YuvLayout>& out_layouts,
                               int source);
// Whether the GPU stage scales the frame before the download.
inline bool scales(const YuvLayout& in, const YuvLayout& out) {
  return in.width != out.width || in.height != out.height;
}

// Where each input's picture lands in the network's input, at its display aspect.
std::vector<Letterbox> letterboxes_for(const ExecutorOptions& options);

// The largest frame of any input, for sizing buffers.
std::size_t max_frame_bytes(const std::vector<YuvLayout>& layouts);
std::size_t max_pixels(const std::vector<YuvLayout>& layouts);

// Overlay style for a frame size: lines and text that stay visible at 4K.
OverlayStyle overlay_style_for(const YuvLayout& layout);
int hud_scale_for(const YuvLayout& layout);

// The colour matrix for a frame.
ColourMatrix matrix_for(const FrameColour& colour);

}  // namespace vidpipe
