// sink.audio: copy. The input's audio goes into the output beside the video, on the input's
// own clock (the video keeps the input's times, so the two stay in sync). The input file is
// opened a second time for its audio alone, so the reader and the GPU path never carry audio
// packets; live inputs (one connection) are not copied. The packets are copied as they are
// where the container takes the codec, otherwise re-encoded to AAC (audio_transcode.cpp).
#pragma once
extern "C" {
#include <libavformat/avformat.h>
}

#include <memory>
#include <string>

#include "memory/av_raii.hpp"

namespace vidpipe {

class AudioTranscoder;

class AudioCopy {
 public:
  // Adds the audio stream to `output` (before its header is written); null when the input
  // has no audio. Throws OutputError when it has audio that cannot go into this output.
  static std::unique_ptr<AudioCopy> open(const std::string& input_uri, AVFormatContext* output,
                                         const std::string& output_name);
  ~AudioCopy();

  // Writes the input's audio up to `until_s` on the input's clock (the last video frame's time).
  void write_until(double until_s);
  // The rest of the audio up to the end of the video, `video_end_s`, then the encoder's tail.
  void finish(double video_end_s);
  std::string describe() const;

 private:
  AudioCopy(AvInputPtr input, int stream_index, AVFormatContext* output, const std::string& output_name);
  bool read_next();  // the next audio packet into pending_; false at the end
  void write_pending();
  void write_packet(AVPacket* packet, AVRational time_base);  // rescaled to the output's stream

  AvInputPtr input_;
  int input_stream_ = -1;
  AVFormatContext* output_ = nullptr;  // owned by the sink
  AVStream* out_stream_ = nullptr;
  std::string output_name_;
  std::unique_ptr<AudioTranscoder> transcoder_;  // null: the packets are copied
  AvPacketPtr pending_;  // read, not written yet (its time is past what was asked)
  bool have_pending_ = false;
  bool input_done_ = false;
};

}  // namespace vidpipe
