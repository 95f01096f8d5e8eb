// VideoReader, decoding into the pool: the decoder's buffers are pool buffers
// (get_pool_buffer), packets are fed as it asks, a loop restarts without a drain where it can
// (loop_restart.hpp), and frames in another layout are converted into a pool buffer.
#include "source/video_reader.hpp"

extern "C" {
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <utility>

#include "base/errors.hpp"
#include "memory/frame_layout.hpp"
#include "source/nvdec.hpp"
#include "source/pixel_formats.hpp"

namespace vidpipe {
namespace {

constexpr int max_nvdec_extra_frames = 20;  // the most seen to work on the H200 (2 inputs, batch 2)

void fill_planes(AVFrame* frame, AVBufferRef* buf, const YuvLayout& l) {
  frame->buf[0] = buf;
  for (int i = 0; i < l.planes(); ++i) {
    frame->data[i] = buf->data + l.offset[i];
    frame->linesize[i] = l.pitch[i];
  }
  frame->extended_data = frame->data;
}

bool matches_layout(const AVFrame& f, const YuvLayout& l, AVPixelFormat format, const FramePool& pool) {
  if (!pool.owns(f.buf[0]) || f.buf[1] || f.format != format) return false;
  if (f.width != l.width || f.height != l.height) return false;
  for (int i = 0; i < l.planes(); ++i)
    if (f.data[i] != f.buf[0]->data + l.offset[i] || f.linesize[i] != l.pitch[i]) return false;
  return true;
}

}  // namespace

void VideoReader::open_decoder(const AVCodec* codec, const AVCodecParameters* par) {
  const std::string& uri = shown_uri_;
  decoder_.reset(avcodec_alloc_context3(codec));
  if (!decoder_) throw std::bad_alloc();
  AV_CHECK_AS(InputError, avcodec_parameters_to_context(decoder_.get(), par), "'" + uri + "': bad codec parameters");
  if (options_.reader.decoder == Decoder::nvdec && options_.input.preload > 0 && !nvdec_failed_)
    spdlog::info("'{}': input.preload decodes on the CPU (held NVDEC frames would exhaust its surfaces)", uri);
  if (options_.reader.decoder == Decoder::nvdec && options_.input.preload == 0 && !nvdec_failed_) {
    std::string why;
    nvdec_ = NvdecDecoder::try_create(codec, options_.cuda_device, why);
    if (!nvdec_) spdlog::warn("'{}': reader.decoder nvdec unavailable ({}); decoding on the CPU", uri, why);
  }
  decoder_->opaque = this;
  decoder_->get_buffer2 = &VideoReader::get_pool_buffer;
  // Confirmed or withdrawn by each pass's first packet (feed_decoder).
  loop_feeds_on_ = options_.input.loop && !options_.segments.active();
  loop_restart_ = {};
  if (nvdec_) {
    // NVDEC has at most 32 decode surfaces and FFmpeg sizes them as DPB + extra frames:
    // asking for more made FFmpeg fall back to software at 4 inputs (docs/BENCHMARKS.md).
    nvdec_->attach(decoder_.get(), options_.nvdec_extra_frames > 0
                                       ? options_.nvdec_extra_frames
                                       : std::min(options_.in_flight + 2, max_nvdec_extra_frames));
    decoder_->thread_count = 1;  // NVDEC decodes; the host thread only parses
  } else {
    decoder_->thread_count = options_.reader.threads;
    decoder_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
  }
#if FF_API_THREAD_SAFE_CALLBACKS
  // FFmpeg 5.x still asks for this flag before it frame-threads a decoder with a
  // custom get_buffer2 (ours is thread-safe: the pool locks). 6.0 drops the field.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  decoder_->thread_safe_callbacks = 1;
#pragma GCC diagnostic pop
#endif
  AV_CHECK_AS(InputError, avcodec_open2(decoder_.get(), codec, nullptr),
              "'" + uri + "': cannot open " + codec->name + " decoder");
}

int VideoReader::get_pool_buffer(AVCodecContext* ctx, AVFrame* frame, int flags) {
  auto* self = static_cast<VideoReader*>(ctx->opaque);
  const YuvLayout& l = self->layout_;
  if (self->stop_ || frame->format != self->pool_format_ || frame->width > self->alloc_width_ ||
      frame->height > self->alloc_height_)
    return avcodec_default_get_buffer2(ctx, frame, flags);
  if (self->nvdec_) self->pool_->start_filling();  // one decoding thread with NVDEC: no race
  AVBufferRef* buf = self->pool_->acquire(std::chrono::milliseconds(self->options_.reader.pool_wait_ms));
  if (!buf) {
    if (!self->stop_) self->pool_exhausted_ = true;
    return AVERROR(ENOMEM);
  }
  fill_planes(frame, buf, l);
  return 0;
}

bool VideoReader::feed_decoder() {
  while (!input_done_) {
    // The deadline covers only the wait for data, not the decoding in between.
    if (timed_reads_) deadline_.arm(options_.timeout_s());
    const int ret = av_read_frame(input_.get(), packet_.get());
    deadline_.arm(0);
    if (ret < 0) {
      if (on_read_end(ret)) return true;
      break;
    }
    if (packet_->stream_index != stream_index_) {
      av_packet_unref(packet_.get());
      continue;
    }
    if (starts_next_segment(*packet_)) {  // another decoder's
      av_packet_unref(packet_.get());
      return end_segment();
    }
    if (packets_this_pass_++ == 0 && loop_feeds_on_) loop_feeds_on_ = pass_starts_with_idr(*packet_);
    loop_restart_.packet_sent();
    const int sent = avcodec_send_packet(decoder_.get(), packet_.get());
    av_packet_unref(packet_.get());
    if (sent < 0 && sent != AVERROR(EAGAIN)) {
      ++decode_errors_;
      spdlog::warn("'{}': decode error near frame {}: {} (frame skipped)", shown_uri_,
                   next_index_, av_error_string(sent));
    }
    return true;
  }
  if (!flushed_) {
    flushed_ = true;
    avcodec_send_packet(decoder_.get(), nullptr);
    return true;
  }
  return false;
}

bool VideoReader::on_read_end(int ret) {
  if (!options_.live && deadline_.fired())
    throw InputError(fmt::format("'{}': no data for {:.1f} s after frame {} (input.timeout_ms)", shown_uri_,
                                 options_.timeout_s(), next_index_));
  if (options_.live && ret != AVERROR(EAGAIN) && !stopping()) {
    // Let the decoder give up the pictures it still holds before the source is reopened.
    pending_reconnect_ = ret;
    avcodec_send_packet(decoder_.get(), nullptr);
    return true;
  }
  if (ret == AVERROR_EOF && options_.segments.active() && !stopping()) return end_segment();
  // A read cut short by a stop is the end of the input, whatever it says.
  if (ret != AVERROR_EOF && !stopping()) {
    check_io(ret, "'" + shown_uri_ + "': read error after frame " + std::to_string(next_index_));
    return false;
  }
  // Restart only if this pass read something: an empty stream must not spin.
  if (!options_.input.loop || stopping() || packets_this_pass_ == 0) {
    input_done_ = true;
    return false;
  }
  const std::int64_t pass_packets = std::exchange(packets_this_pass_, 0);
  if (std::exchange(options_.injected.stop_in_loop_seek, false)) deadline_.raise_stop_at_next_check();
  check_io(av_seek_frame(input_.get(), stream_index_, 0, AVSEEK_FLAG_BACKWARD),
           "'" + shown_uri_ + "': cannot loop (seek failed)");
  if (loop_feeds_on_) {
    if (loop_restart_.decodes_nothing(pass_packets)) throw_pass_decoded_nothing();
    return true;
  }
  // Drain what the decoder holds before the restart is fed in.
  avcodec_send_packet(decoder_.get(), nullptr);
  return true;
}

bool VideoReader::pass_starts_with_idr(const AVPacket& packet) const {
  const AVCodecParameters* par = input_->streams[stream_index_]->codecpar;
  return LoopRestart::starts_with_idr(par->codec_id, {par->extradata, static_cast<std::size_t>(par->extradata_size)},
                                      {packet.data, static_cast<std::size_t>(packet.size)});
}

bool VideoReader::receive_into(AVFrame* out) {
  while (!stop_) {
    const int ret = avcodec_receive_frame(decoder_.get(), out);
    if (ret == 0) {
      ++frames_this_pass_;
      loop_restart_.frame_out();
      return true;
    }
    if (pool_exhausted_) {
      pool_->rethrow_filling_error();
      throw InputError("'" + shown_uri_ + "': frame pool exhausted (" + std::to_string(pool_->capacity()) +
                       " buffers all held); raise reader.pool_frames");
    }
    if (ret == AVERROR_EOF) {
      if (pending_segment_) {  // drained: on to this decoder's next segment
        pending_segment_ = false;
        avcodec_flush_buffers(decoder_.get());
        if (!seek_to_next_segment()) return false;
        continue;
      }
      if (pending_reconnect_ != 0) {  // drained: now reopen the lost live source
        avcodec_flush_buffers(decoder_.get());
        const int cause = std::exchange(pending_reconnect_, 0);
        reconnect(cause);
        continue;
      }
      if (!input_done_ && options_.input.loop) {  // drained for a loop restart
        // A pass that gave no frame would give none the next time either: an endless spin.
        if (frames_this_pass_ == 0) throw_pass_decoded_nothing();
        frames_this_pass_ = 0;
        avcodec_flush_buffers(decoder_.get());
        continue;
      }
      return false;
    }
    if (ret != AVERROR(EAGAIN)) {
      ++decode_errors_;
      spdlog::warn("'{}': decode error near frame {}: {}", shown_uri_, next_index_, av_error_string(ret));
    }
    if (!feed_decoder()) return false;
  }
  return false;
}

AvFramePtr VideoReader::to_pool_layout(AvFramePtr decoded) {
  if (matches_layout(*decoded, layout_, pool_format_, *pool_)) return decoded;
  if (decoded->width != layout_.width || decoded->height != layout_.height)
    throw InputError(fmt::format("'{}': frame {} changes size from {}x{} to {}x{} (mid-stream size changes are "
                                 "not supported: the frames before it are kept)",
                                 shown_uri_, next_index_, layout_.width, layout_.height, decoded->width,
                                 decoded->height));
  if (nvdec_) pool_->start_filling();
  AVBufferRef* buf = pool_->acquire(std::chrono::milliseconds(options_.reader.pool_wait_ms));
  if (!buf) {
    if (stop_) return nullptr;
    pool_->rethrow_filling_error();
    throw InputError("'" + shown_uri_ + "': frame pool exhausted; raise reader.pool_frames");
  }
  AvFramePtr out = make_frame();
  fill_planes(out.get(), buf, layout_);
  out->format = pool_format_;
  out->width = layout_.width;
  out->height = layout_.height;
  av_frame_copy_props(out.get(), decoded.get());
  if (is_rgb_or_gray(static_cast<AVPixelFormat>(decoded->format))) {
    // swscale reads R'G'B' and gray as full range and writes limited-range BT.601 Y'CbCr;
    // the source's own tags (a PNG's "full") would make the GPU stage stretch it twice.
    out->colorspace = AVCOL_SPC_BT470BG;
    out->color_range = AVCOL_RANGE_MPEG;
  }
  sws_ = sws_getCachedContext(sws_, decoded->width, decoded->height,
                              static_cast<AVPixelFormat>(decoded->format), out->width, out->height,
                              static_cast<AVPixelFormat>(out->format), SWS_BILINEAR, nullptr,
                              nullptr, nullptr);
  if (!sws_) throw InputError("'" + shown_uri_ + "': cannot convert pixel format " + info_.pixel_format);
  sws_scale(sws_, decoded->data, decoded->linesize, 0, decoded->height, out->data, out->linesize);
  ++converted_frames_;
  if (converted_frames_ == 1)
    spdlog::info("'{}': frames arrive as {}; converting to {} (one extra host copy per frame)",
                 shown_uri_, av_get_pix_fmt_name(static_cast<AVPixelFormat>(decoded->format)),
                 av_get_pix_fmt_name(pool_format_));
  return out;
}

void VideoReader::throw_pass_decoded_nothing() const {
  throw InputError(fmt::format("'{}': a whole pass of input.loop decoded no frame ({} decode errors)", shown_uri_,
                               decode_errors_.load()));
}

}  // namespace vidpipe
