#include "sink/audio_transcode.hpp"

extern "C" {
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>
}

#include "base/errors.hpp"

namespace vidpipe {

void SwrDeleter::operator()(SwrContext* s) const { swr_free(&s); }
void AudioFifoDeleter::operator()(AVAudioFifo* f) const { av_audio_fifo_free(f); }

AudioTranscoder::AudioTranscoder(const AVStream* in, AVStream* out, AVFormatContext* output)
    : decoded_(make_frame()), encoded_(make_packet()), input_time_base_(in->time_base) {
  const AVCodec* decoder = avcodec_find_decoder(in->codecpar->codec_id);
  const AVCodec* encoder = avcodec_find_encoder(AV_CODEC_ID_AAC);
  if (!decoder) throw OutputError(std::string("no decoder for the input's audio (") +
                                  avcodec_get_name(in->codecpar->codec_id) + ")");
  if (!encoder) throw OutputError("this FFmpeg has no AAC encoder");
  decoder_.reset(avcodec_alloc_context3(decoder));
  encoder_.reset(avcodec_alloc_context3(encoder));
  if (!decoder_ || !encoder_) throw std::bad_alloc();
  AV_CHECK_AS(OutputError, avcodec_parameters_to_context(decoder_.get(), in->codecpar), "audio decoder parameters");
  decoder_->pkt_timebase = in->time_base;
  AV_CHECK_AS(OutputError, avcodec_open2(decoder_.get(), decoder, nullptr), "cannot open the audio decoder");
  encoder_->sample_rate = decoder_->sample_rate;
  AV_CHECK_AS(OutputError, av_channel_layout_copy(&encoder_->ch_layout, &decoder_->ch_layout), "audio channels");
  if (encoder_->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC)
    av_channel_layout_default(&encoder_->ch_layout, decoder_->ch_layout.nb_channels);
  encoder_->sample_fmt = AV_SAMPLE_FMT_FLTP;  // the only one FFmpeg's AAC encoder takes
  encoder_->bit_rate = 64000 * encoder_->ch_layout.nb_channels;
  encoder_->time_base = {1, encoder_->sample_rate};
  if (output->oformat->flags & AVFMT_GLOBALHEADER) encoder_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AV_CHECK_AS(OutputError, avcodec_open2(encoder_.get(), encoder, nullptr), "cannot open the AAC encoder");
  AV_CHECK_AS(OutputError, avcodec_parameters_from_context(out->codecpar, encoder_.get()), "AAC parameters");
  out->time_base = encoder_->time_base;
  SwrContext* swr = nullptr;
  AV_CHECK_AS(OutputError,
              swr_alloc_set_opts2(&swr, &encoder_->ch_layout, encoder_->sample_fmt, encoder_->sample_rate,
                                  &decoder_->ch_layout, decoder_->sample_fmt, decoder_->sample_rate, 0, nullptr),
              "audio resampler");
  resampler_.reset(swr);
  AV_CHECK_AS(OutputError, swr_init(resampler_.get()), "audio resampler");
  fifo_.reset(av_audio_fifo_alloc(encoder_->sample_fmt, encoder_->ch_layout.nb_channels, encoder_->frame_size));
  if (!fifo_) throw std::bad_alloc();
}

AVRational AudioTranscoder::time_base() const { return encoder_->time_base; }
const char* AudioTranscoder::codec_name() const { return encoder_->codec->name; }

void AudioTranscoder::feed(const AVPacket* packet, const std::function<void(AVPacket*)>& write) {
  const int sent = avcodec_send_packet(decoder_.get(), packet);
  if (sent == AVERROR_INVALIDDATA) return;  // a damaged packet: a moment of silence, not a lost video
  AV_CHECK_AS(OutputError, sent, "decoding the input's audio");
  while (true) {
    const int ret = avcodec_receive_frame(decoder_.get(), decoded_.get());
    if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) break;
    AV_CHECK_AS(OutputError, ret, "decoding the input's audio");
    if (next_pts_ == AV_NOPTS_VALUE && decoded_->pts != AV_NOPTS_VALUE)
      next_pts_ = av_rescale_q(decoded_->pts, input_time_base_, encoder_->time_base);
    // Room for what this frame becomes after resampling, then convert straight into the FIFO.
    const int out_samples = swr_get_out_samples(resampler_.get(), decoded_->nb_samples);
    AV_CHECK_AS(OutputError, av_audio_fifo_realloc(fifo_.get(), av_audio_fifo_size(fifo_.get()) + out_samples),
                "audio buffer");
    AvFramePtr converted = make_frame();
    converted->format = encoder_->sample_fmt;
    converted->sample_rate = encoder_->sample_rate;
    converted->nb_samples = out_samples;
    AV_CHECK_AS(OutputError, av_channel_layout_copy(&converted->ch_layout, &encoder_->ch_layout), "audio channels");
    AV_CHECK_AS(OutputError, av_frame_get_buffer(converted.get(), 0), "audio buffer");
    const int got = swr_convert(resampler_.get(), converted->data, out_samples,
                                const_cast<const std::uint8_t**>(decoded_->extended_data), decoded_->nb_samples);
    AV_CHECK_AS(OutputError, got, "resampling the input's audio");
    av_audio_fifo_write(fifo_.get(), reinterpret_cast<void**>(converted->data), got);
    av_frame_unref(decoded_.get());
  }
  encode_from_fifo(packet == nullptr, write);
}

// The encoder takes frame_size samples at a time; on the flush, the last short frame too.
void AudioTranscoder::encode_from_fifo(bool flush, const std::function<void(AVPacket*)>& write) {
  const int frame_size = encoder_->frame_size;
  while (av_audio_fifo_size(fifo_.get()) >= frame_size || (flush && av_audio_fifo_size(fifo_.get()) > 0)) {
    AvFramePtr frame = make_frame();
    frame->nb_samples = std::min(frame_size, av_audio_fifo_size(fifo_.get()));
    frame->format = encoder_->sample_fmt;
    frame->sample_rate = encoder_->sample_rate;
    AV_CHECK_AS(OutputError, av_channel_layout_copy(&frame->ch_layout, &encoder_->ch_layout), "audio channels");
    AV_CHECK_AS(OutputError, av_frame_get_buffer(frame.get(), 0), "audio buffer");
    av_audio_fifo_read(fifo_.get(), reinterpret_cast<void**>(frame->data), frame->nb_samples);
    frame->pts = next_pts_ == AV_NOPTS_VALUE ? 0 : next_pts_;
    next_pts_ = frame->pts + frame->nb_samples;
    AV_CHECK_AS(OutputError, avcodec_send_frame(encoder_.get(), frame.get()), "encoding AAC");
    drain_encoder(write);
  }
  if (!flush) return;
  AV_CHECK_AS(OutputError, avcodec_send_frame(encoder_.get(), nullptr), "flushing the AAC encoder");
  drain_encoder(write);
}

void AudioTranscoder::drain_encoder(const std::function<void(AVPacket*)>& write) {
  while (true) {
    const int ret = avcodec_receive_packet(encoder_.get(), encoded_.get());
    if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
    AV_CHECK_AS(OutputError, ret, "encoding AAC");
    write(encoded_.get());
  }
}

}  // namespace vidpipe
