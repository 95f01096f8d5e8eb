// How a looping file (input.loop) starts its next pass without a new decoder.
//
// Draining the decoder and flushing it at the end of each pass (as `ffmpeg -stream_loop`
// does) makes FFmpeg set the decoder up again from the next packet on: with NVDEC that is a
// new hardware session, ~55 ms in the driver, which creates them one at a time. 64 looping
// NVDEC inputs wrap at about the same moment, so each wrap stalled them all for seconds, and
// a 60 s run of them dropped half their frames on the H100 (docs/BENCHMARKS.md). An H.264 or
// HEVC pass that starts with an IDR picture puts out every picture before it, in order, and
// refers to none of them: its packets are fed on behind the last pass's without a break, and
// every frame comes out as from a fresh decoder. Any other start (an open-GOP I picture, a
// CRA, another codec) is drained and flushed as before.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>

extern "C" {
#include <libavcodec/codec_id.h>
}

namespace vidpipe {

class LoopRestart {
 public:
  // `extradata` tells length-prefixed (MP4's avcC/hvcC) from Annex B (MPEG-TS, raw) packets.
  static bool starts_with_idr(AVCodecID codec, std::span<const std::uint8_t> extradata,
                              std::span<const std::uint8_t> first_packet);

  void packet_sent() { ++packets_since_frame_; }
  void frame_out() { packets_since_frame_ = 0; }

  // At the end of a pass of `packets`: true when the decoder has taken two passes' packets
  // (and at least more than any decoder holds back) without putting out a frame, which it
  // would go on doing for ever. A pass of a short file may give nothing yet: frame threads
  // and reordering hold the first frames until more packets come.
  bool decodes_nothing(std::int64_t packets) const {
    return packets_since_frame_ > std::max<std::int64_t>(2 * packets, min_packets_held_back);
  }

 private:
  static constexpr std::int64_t min_packets_held_back = 64;
  std::int64_t packets_since_frame_ = 0;
};

}  // namespace vidpipe
