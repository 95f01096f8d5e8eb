// Plain views of the images the GPU stage works on. Shared by the CUDA kernels and
// their CPU references so that both read exactly the same memory layout.
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define VP_HD __host__ __device__
#else
#define VP_HD
#endif

namespace vidpipe {

// One decoded frame as it sits in a pool buffer (and, byte for byte, on the device after
// the upload). Offsets are from the start of the buffer so that the same view works for
// the host copy and the device copy. Every kernel after the first step works on 8-bit
// 4:2:0 ("narrow"); a wider frame (10/12/16-bit, 4:2:2, 4:4:4) is uploaded as decoded
// and narrowed on the GPU (narrow_yuv), so the host never converts it.
struct YuvLayout {
  int width = 0;   // visible size
  int height = 0;
  bool nv12 = false;              // false: three planes; true: Y + interleaved UV (NV12, P010)
  std::size_t offset[3] = {0, 0, 0};
  int pitch[3] = {0, 0, 0};
  std::size_t frame_bytes = 0;    // bytes to copy per frame, padding included
  // Chroma subsampling as log2 (1, 1: 4:2:0; 1, 0: 4:2:2; 0, 0: 4:4:4).
  std::uint8_t chroma_shift_x = 1, chroma_shift_y = 1;
  std::uint8_t sample_bytes = 1;  // 2: little-endian 16-bit words
  std::uint8_t sample_bits = 8;   // significant bits of a sample
  std::uint8_t sample_lsb = 0;    // unused bits below them (6 for P010, whose samples sit high)

  VP_HD int chroma_width() const { return (width + (1 << chroma_shift_x) - 1) >> chroma_shift_x; }
  VP_HD int chroma_height() const { return (height + (1 << chroma_shift_y) - 1) >> chroma_shift_y; }
  VP_HD bool narrow() const { return sample_bytes == 1 && chroma_shift_x == 1 && chroma_shift_y == 1; }
  VP_HD int planes() const { return nv12 ? 2 : 3; }
};

// One plane of a frame: where it starts in the frame, its size in samples, its pitch in
// bytes and how many samples sit side by side per pixel (2 for interleaved UV).
struct PlaneView {
  std::size_t offset = 0;
  int width = 0, height = 0, pitch = 0, channels = 1;
};

VP_HD inline PlaneView plane_of(const YuvLayout& l, int index) {
  if (index == 0) return {l.offset[0], l.width, l.height, l.pitch[0], 1};
  return {l.offset[index], l.chroma_width(), l.chroma_height(), l.pitch[index], l.nv12 ? 2 : 1};
}

// Y'CbCr -> R'G'B' coefficients, already folded with the range expansion, so a
// kernel does r = y_scale*(Y - y_offset) + cr_r*(Cr-128) and so on.
struct ColourMatrix {
  float y_offset = 16.f;
  float y_scale = 1.f;
  float cr_to_r = 0.f;
  float cb_to_g = 0.f;
  float cr_to_g = 0.f;
  float cb_to_b = 0.f;
};

// Where the picture lands inside the square network input (for mapping boxes back).
struct Letterbox {
  int dst_width = 0;
  int dst_height = 0;
  // dst pixels per source pixel; they differ where the source's pixels are not square (SAR),
  // so the network sees the picture at its display aspect.
  float scale_x = 1.f, scale_y = 1.f;
  int pad_x = 0;       // left edge of the picture inside dst
  int pad_y = 0;
  int content_width = 0;
  int content_height = 0;
};

// (value - mean[c]) * scale[c], channel c of the network's input: R, G, B in that order, or
// B, G, R with `bgr`; planes one after another (NCHW), or interleaved per pixel with `nhwc`.
struct Normalisation {
  float mean[3] = {0.f, 0.f, 0.f};
  float scale[3] = {1.f / 255.f, 1.f / 255.f, 1.f / 255.f};
  bool bgr = false;
  bool nhwc = false;
};

// A face box in source-frame pixels. No member initialisers: kernels keep arrays of
// these in shared memory, which cannot run constructors.
struct Detection {
  float x0, y0, x1, y1;
  float score;
  int label;  // the class: a YOLO head's best; 0 for a model of one class (faces, text)
};

// What the raw decoder (gpu.onnx.decoder raw) makes of one frame's output tensor instead of
// boxes: a classifier's class is its argmax.
struct TensorSummary {
  float min, max, mean;  // of the finite values (0 where there is none)
  int argmax;            // the first index of the largest finite value among the frame's floats; -1: none
  int nonfinite;         // NaN and infinite values: a model that overflows shows here
};

// One frame's detections after NMS, best first; fixed size so it can live in
// device memory and come back in one small copy.
inline constexpr int max_detections = 32;
struct DetectionList {
  int count = 0;
  Detection det[max_detections] = {};
  TensorSummary summary = {};  // the raw decoder's; zeros for the others
};

// Glyphs for printable ASCII (32..126), each glyph_h rows of glyph_w 8-bit coverage
// values, glyph after glyph, and each glyph's advance (how far a line of text moves on
// after it, less than glyph_w). Rendered by OpenCV (pipeline/device/glyph_atlas.cpp).
struct GlyphAtlasView {
  const std::uint8_t* pixels = nullptr;
  int glyph_w = 0, glyph_h = 0;
  const std::uint8_t* advance = nullptr;  // count entries, in 1/advance_units glyph pixels
  static constexpr int first = 32, count = 95, advance_units = 16;
};

struct OverlayStyle {
  int thickness = 2;   // box outline, source pixels
  int text_scale = 1;  // glyph pixel -> text_scale x text_scale frame pixels
  std::uint8_t y = 173, u = 42, v = 26;  // box colour (green, BT.709 limited)
};

// Text for the heads-up display, passed to the kernel by value.
struct HudText {
  char text[96] = {};
  int length = 0;
  int line = 0;  // 0: the top row of the HUD, 1: the row under it
};

// The HUD's rows: figures of the last second, and the verdict of what bounds the run.
struct HudLines {
  HudText line[2];
};

}  // namespace vidpipe
