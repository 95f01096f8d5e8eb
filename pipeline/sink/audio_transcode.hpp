// Re-encodes an input audio stream to AAC, for outputs whose container does not take the
// input's codec (PCM in MP4, for one). Decoded samples go through swresample into the AAC
// encoder's format and through a FIFO into its fixed frame size.
#pragma once
extern "C" {
#include <libavformat/avformat.h>
}

#include <functional>
#include <memory>

#include "memory/av_raii.hpp"

struct SwrContext;
struct AVAudioFifo;

namespace vidpipe {

struct SwrDeleter { void operator()(SwrContext* s) const; };
struct AudioFifoDeleter { void operator()(AVAudioFifo* f) const; };

class AudioTranscoder {
 public:
  // `in`: the input's audio stream; `out`: the output stream to set up (before the header).
  AudioTranscoder(const AVStream* in, AVStream* out, AVFormatContext* output);
  // One input packet (null: flush); each encoded packet goes to `write`, in the encoder's time base.
  void feed(const AVPacket* packet, const std::function<void(AVPacket*)>& write);
  AVRational time_base() const;
  const char* codec_name() const;

 private:
  void encode_from_fifo(bool flush, const std::function<void(AVPacket*)>& write);
  void drain_encoder(const std::function<void(AVPacket*)>& write);

  AvCodecContextPtr decoder_, encoder_;
  std::unique_ptr<SwrContext, SwrDeleter> resampler_;
  std::unique_ptr<AVAudioFifo, AudioFifoDeleter> fifo_;
  AvFramePtr decoded_;
  AvPacketPtr encoded_;
  AVRational input_time_base_{1, 1};
  std::int64_t next_pts_ = AV_NOPTS_VALUE;  // in samples at the output rate
};

}  // namespace vidpipe
