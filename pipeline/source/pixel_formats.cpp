#include "source/pixel_formats.hpp"

extern "C" {
#include <libavutil/pixdesc.h>
}

namespace vidpipe {
namespace {

constexpr std::uint64_t refused_flags = AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                                        AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA |
                                        AV_PIX_FMT_FLAG_FLOAT;

bool same_depth(const AVPixFmtDescriptor& d) {
  return d.comp[1].depth == d.comp[0].depth && d.comp[2].depth == d.comp[0].depth &&
         d.comp[1].shift == d.comp[0].shift && d.comp[2].shift == d.comp[0].shift;
}

}  // namespace

// Read from FFmpeg's own descriptors rather than listed by name, so that every variant
// (yuvj*, 12-bit, 4:4:0, NV16) is covered and nothing mislabelled slips in.
std::optional<PixelLayout> uploadable_layout(AVPixelFormat format) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  if (!d || d->nb_components != 3 || (d->flags & refused_flags) || !same_depth(*d)) return std::nullopt;
  if (d->log2_chroma_w > 1 || d->log2_chroma_h > 1 || d->comp[0].depth < 8 || d->comp[0].depth > 16)
    return std::nullopt;
  PixelLayout p;
  p.sample_bytes = d->comp[0].depth > 8 ? 2 : 1;
  p.sample_bits = d->comp[0].depth;
  p.sample_lsb = d->comp[0].shift;
  p.chroma_shift_x = d->log2_chroma_w;
  p.chroma_shift_y = d->log2_chroma_h;
  const int s = p.sample_bytes;
  if (d->comp[0].plane != 0 || d->comp[0].step != s || d->comp[0].offset != 0) return std::nullopt;
  const bool planar = d->comp[1].plane == 1 && d->comp[2].plane == 2 && d->comp[1].step == s && d->comp[2].step == s;
  // U before V in the interleaved plane (NV21's V-first order is left to swscale).
  p.interleaved_chroma = d->comp[1].plane == 1 && d->comp[2].plane == 1 && d->comp[1].step == 2 * s &&
                         d->comp[1].offset == 0 && d->comp[2].offset == s;
  if (!planar && !p.interleaved_chroma) return std::nullopt;
  if (planar && (d->comp[1].offset != 0 || d->comp[2].offset != 0)) return std::nullopt;
  return p;
}

bool is_rgb_or_gray(AVPixelFormat format) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(format);
  return d && ((d->flags & AV_PIX_FMT_FLAG_RGB) || d->nb_components <= 2);
}

}  // namespace vidpipe
