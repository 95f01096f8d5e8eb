#include "source/loop_restart.hpp"

#include <functional>

namespace vidpipe {
namespace {

// Written here rather than through a bitstream filter: only the NAL unit types of one
// packet are wanted, once a pass, and the filter would copy and rewrite the packet.
using NalVisitor = std::function<bool(std::uint8_t first_byte)>;

bool any_length_prefixed(std::span<const std::uint8_t> data, std::size_t length_size, const NalVisitor& visit) {
  std::size_t at = 0;
  while (at + length_size < data.size()) {
    std::size_t length = 0;
    for (std::size_t i = 0; i < length_size; ++i) length = (length << 8) | data[at + i];
    at += length_size;
    if (length == 0 || length > data.size() - at) return false;
    if (visit(data[at])) return true;
    at += length;
  }
  return false;
}

bool any_annex_b(std::span<const std::uint8_t> data, const NalVisitor& visit) {
  for (std::size_t at = 0; at + 3 < data.size(); ++at) {
    if (data[at] == 0 && data[at + 1] == 0 && data[at + 2] == 1 && visit(data[at + 3])) return true;
  }
  return false;
}

bool is_idr(AVCodecID codec, std::uint8_t first_byte) {
  if (codec == AV_CODEC_ID_H264) return (first_byte & 0x1f) == 5;
  const int hevc_type = (first_byte >> 1) & 0x3f;
  return hevc_type == 19 || hevc_type == 20;  // IDR_W_RADL, IDR_N_LP
}

// avcC and hvcC start with configurationVersion 1 and keep the NAL length size at a fixed
// place; Annex B extradata (or none, as in MPEG-TS) starts with a start code.
std::size_t nal_length_size(AVCodecID codec, std::span<const std::uint8_t> extradata) {
  if (extradata.empty() || extradata[0] != 1) return 0;
  const std::size_t at = codec == AV_CODEC_ID_H264 ? 4 : 21;
  return at < extradata.size() ? (extradata[at] & 3) + 1 : 0;
}

}  // namespace

bool LoopRestart::starts_with_idr(AVCodecID codec, std::span<const std::uint8_t> extradata,
                                  std::span<const std::uint8_t> first_packet) {
  if (codec != AV_CODEC_ID_H264 && codec != AV_CODEC_ID_HEVC) return false;
  const NalVisitor idr = [codec](std::uint8_t byte) { return is_idr(codec, byte); };
  const std::size_t length_size = nal_length_size(codec, extradata);
  return length_size > 0 ? any_length_prefixed(first_packet, length_size, idr) : any_annex_b(first_packet, idr);
}

}  // namespace vidpipe
