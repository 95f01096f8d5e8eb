#include "sink/audio_copy.hpp"

#include <spdlog/spdlog.h>

#include "base/errors.hpp"
#include "sink/audio_transcode.hpp"

namespace vidpipe {

std::unique_ptr<AudioCopy> AudioCopy::open(const std::string& input_uri, AVFormatContext* output,
                                           const std::string& output_name) {
  AVFormatContext* raw = nullptr;
  if (avformat_open_input(&raw, input_uri.c_str(), nullptr, nullptr) < 0) return nullptr;  // the reader says why
  AvInputPtr input(raw);
  if (avformat_find_stream_info(input.get(), nullptr) < 0) return nullptr;
  const int stream = av_find_best_stream(input.get(), AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
  if (stream < 0) return nullptr;
  return std::unique_ptr<AudioCopy>(new AudioCopy(std::move(input), stream, output, output_name));
}

AudioCopy::AudioCopy(AvInputPtr input, int stream_index, AVFormatContext* output, const std::string& output_name)
    : input_(std::move(input)), input_stream_(stream_index), output_(output), output_name_(output_name),
      pending_(make_packet()) {
  // Only the audio stream is read back.
  for (unsigned i = 0; i < input_->nb_streams; ++i)
    input_->streams[i]->discard = static_cast<int>(i) == stream_index ? AVDISCARD_DEFAULT : AVDISCARD_ALL;
  const AVStream* in = input_->streams[stream_index];
  out_stream_ = avformat_new_stream(output, nullptr);
  if (!out_stream_) throw std::bad_alloc();
  // As it is where the container takes the codec; AAC where it does not.
  if (avformat_query_codec(output->oformat, in->codecpar->codec_id, FF_COMPLIANCE_NORMAL) == 1) {
    AV_CHECK_AS(OutputError, avcodec_parameters_copy(out_stream_->codecpar, in->codecpar),
                "'" + output_name + "': audio parameters");
    out_stream_->codecpar->codec_tag = 0;  // the output container's own tag
    out_stream_->time_base = in->time_base;
  } else {
    transcoder_ = std::make_unique<AudioTranscoder>(in, out_stream_, output);
  }
  spdlog::info("'{}': audio {}", output_name_, describe());
}

AudioCopy::~AudioCopy() = default;

std::string AudioCopy::describe() const {
  const char* in = avcodec_get_name(input_->streams[input_stream_]->codecpar->codec_id);
  return transcoder_ ? std::string(in) + " re-encoded to " + transcoder_->codec_name() : std::string(in) + " copied";
}

bool AudioCopy::read_next() {
  while (!input_done_) {
    const int ret = av_read_frame(input_.get(), pending_.get());
    if (ret < 0) {
      input_done_ = true;
      return false;
    }
    if (pending_->stream_index == input_stream_) return true;
    av_packet_unref(pending_.get());
  }
  return false;
}

void AudioCopy::write_packet(AVPacket* packet, AVRational time_base) {
  av_packet_rescale_ts(packet, time_base, out_stream_->time_base);
  packet->stream_index = out_stream_->index;
  packet->pos = -1;
  AV_CHECK_AS(OutputError, av_interleaved_write_frame(output_, packet), "'" + output_name_ + "': writing audio");
}

// The pending packet into the output, or through the AAC encoder first.
void AudioCopy::write_pending() {
  if (transcoder_)
    transcoder_->feed(pending_.get(), [&](AVPacket* p) { write_packet(p, transcoder_->time_base()); });
  else
    write_packet(pending_.get(), input_->streams[input_stream_]->time_base);
  av_packet_unref(pending_.get());
  have_pending_ = false;
}

void AudioCopy::write_until(double until_s) {
  const AVRational tb = input_->streams[input_stream_]->time_base;
  while (true) {
    if (!have_pending_ && !(have_pending_ = read_next())) return;
    const std::int64_t ts = pending_->pts != AV_NOPTS_VALUE ? pending_->pts : pending_->dts;
    if (ts != AV_NOPTS_VALUE && ts * av_q2d(tb) > until_s) return;
    write_pending();
  }
}

void AudioCopy::finish(double video_end_s) {
  write_until(video_end_s);
  if (have_pending_) av_packet_unref(pending_.get());
  have_pending_ = false;
  if (transcoder_) transcoder_->feed(nullptr, [&](AVPacket* p) { write_packet(p, transcoder_->time_base()); });
}

}  // namespace vidpipe
