#include "source/video_reader.hpp"

#include "base/redact.hpp"

extern "C" {
#include <libavutil/display.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>
#include <utility>

#include "base/errors.hpp"
#include "memory/frame_layout.hpp"
#include "source/nvdec.hpp"
#include "source/segment_fan.hpp"
#include "source/pixel_formats.hpp"

namespace vidpipe {

namespace {

// The display matrix's rotation as clockwise quarter turns, as ffmpeg's autorotate reads it
// (av_display_rotation_get gives the angle counter-clockwise); other angles and flips are
// left alone.
int quarter_turns_of(const AVStream* stream) {
  const auto* matrix =
      reinterpret_cast<const std::int32_t*>(av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nullptr));
  if (!matrix) return 0;
  const double angle = -av_display_rotation_get(matrix);
  if (std::isnan(angle)) return 0;
  const long turns = std::lround(angle / 90.0);
  if (std::abs(angle - 90.0 * turns) > 1.0) return 0;
  return static_cast<int>(((turns % 4) + 4) % 4);
}

}  // namespace

namespace {

constexpr int max_dimension = 16384;
// H.264/HEVC keep up to 16 reference frames, and each frame thread holds one more.
constexpr int decoder_reference_frames = 16;
constexpr int max_backoff_ms = 8000;
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

VideoReader::VideoReader(const ReaderOptions& options)
    : options_(options), shown_uri_(redacted_uri(options.uri)), packet_(make_packet()) {
  const double opening_from = steady_seconds();
  info_.uri = shown_uri_;
  // An http:// file that never answers hung the run: every network read has a deadline.
  timed_reads_ = options.live || is_named_pipe(options.uri) || is_network_uri(options.uri);
  try {
    input_ = open_input(options.uri, options.input, deadline_, timed_reads_ ? options.timeout_s() : 0);
  } catch (const InputError& e) {
    if (deadline_.stopped()) throw StoppedBeforeStart("stopped while '" + shown_uri_ + "' was opening");
    // A network sender may start after us; a missing camera or file will not appear.
    if (!options.live || is_camera_uri(options.uri) || options.input.reconnect.attempts == 0) throw;
    spdlog::warn("{}; retrying", e.what());
    input_ = open_with_retries(e.what(), nullptr, nullptr);
    if (!input_) throw StoppedBeforeStart("stopped while '" + shown_uri_ + "' was opening");
  }
  const AVCodec* codec = nullptr;
  stream_index_ = av_find_best_stream(input_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (stream_index_ == AVERROR_DECODER_NOT_FOUND)
    throw InputError("'" + shown_uri_ + "': no decoder for its video codec");
  if (stream_index_ < 0) throw InputError("'" + shown_uri_ + "': no video stream");
  const AVStream* stream = input_->streams[stream_index_];
  const AVCodecParameters* par = stream->codecpar;
  if (par->width <= 0 || par->height <= 0)
    throw InputError("'" + shown_uri_ + "': its header gives no picture size (a broken or truncated file?)");
  if (par->width > max_dimension ||
      par->height > max_dimension)
    throw InputError("'" + shown_uri_ + "': unsupported frame size " + std::to_string(par->width) +
                     "x" + std::to_string(par->height) + " (1.." + std::to_string(max_dimension) + ")");
  open_decoder(codec, par);
  if (options_.segments.active()) {  // one of a split file's decoders: it starts at its first segment
    segment_ = options_.segments.first();
    if (segment_ < 0) input_done_ = flushed_ = true;
    if (segment_ > 0)
      check_io(seek_to_segment_start(), "'" + shown_uri_ + "': cannot seek to its segment " + std::to_string(segment_));
  }
  if (nvdec_) {
    const double nvdec_from = steady_seconds();
    confirm_nvdec(codec);
    info_.nvdec_start_s = steady_seconds() - nvdec_from;
  }

  info_.codec = codec->name;
  const AVPixelFormat decoded_format = nvdec_ ? nvdec_format() : decoder_->pix_fmt;
  const char* fmt_name = av_get_pix_fmt_name(decoded_format);
  info_.pixel_format = fmt_name ? fmt_name : "unknown";
  info_.decoder = nvdec_ ? "nvdec" : nvdec_failed_ ? "cpu (nvdec did not start)" : "cpu";
  info_.width = par->width;
  info_.height = par->height;
  const AVRational rate = stream->avg_frame_rate.num > 0 ? stream->avg_frame_rate : stream->r_frame_rate;
  if (rate.num > 0 && rate.den > 0) info_.fps = av_q2d(rate);
  info_.frame_count = options.live ? 0 : stream->nb_frames;
  if (!options.live)
    info_.duration_s = stream->duration > 0 ? stream->duration * av_q2d(stream->time_base)
                       : input_->duration > 0 ? input_->duration / static_cast<double>(AV_TIME_BASE)
                                              : 0.0;
  info_.is_still = input_->iformat && std::string(input_->iformat->name).find("image2") != std::string::npos;

  info_.quarter_turns = quarter_turns_of(stream);
  const AVRational sar = av_guess_sample_aspect_ratio(input_.get(), const_cast<AVStream*>(stream), nullptr);
  if (sar.num > 0 && sar.den > 0) info_.sample_aspect = av_q2d(sar);
  info_.fields = par->field_order == AV_FIELD_TT || par->field_order == AV_FIELD_TB   ? VideoInfo::Fields::top_first
                 : par->field_order == AV_FIELD_BB || par->field_order == AV_FIELD_BT ? VideoInfo::Fields::bottom_first
                                                                                      : VideoInfo::Fields::progressive;
  info_.colour = colour_from(par->color_space, par->color_range, decoded_format, par->width, par->height);
  // Frames go into the pool as decoded where the GPU stage can narrow them (NVDEC's on the
  // device, copied into this layout there); others are converted to 8-bit 4:2:0 here.
  const std::optional<PixelLayout> native = uploadable_layout(decoded_format);
  pool_format_ = native ? decoded_format : AV_PIX_FMT_YUV420P;
  alloc_width_ = par->width;
  alloc_height_ = par->height;
  int linesize_align[AV_NUM_DATA_POINTERS];
  if (!nvdec_ && native) avcodec_align_dimensions2(decoder_.get(), &alloc_width_, &alloc_height_, linesize_align);
  layout_ = make_yuv_layout(par->width, par->height, alloc_width_, alloc_height_,
                            native.value_or(PixelLayout::yuv420(false)));
  // swscale turns R'G'B' and gray into limited-range BT.601 (to_pool_layout): say so, so the
  // GPU stage and the output's tags read the frames as they are.
  if (!native && is_rgb_or_gray(decoded_format)) info_.colour = {ColourStandard::bt601, ColourRange::limited};

  const int threads = decoder_->thread_count > 0 ? decoder_->thread_count : 1;
  info_.decoder_threads = threads;
  // With NVDEC the host pool only takes frames that arrive in software after all.
  const int pool_frames = options.reader.pool_frames > 0 ? options.reader.pool_frames
                          : nvdec_                ? options.in_flight + 2
                                                  : decoder_reference_frames + threads + options.in_flight + 2 +
                                                        options.input.preload;
  // Pinned in the background: the decoder starts on the first buffer (frame_pool.hpp).
  pool_ = std::make_unique<FramePool>(pool_frames, layout_.frame_bytes, options.memory,
                                      PoolFilling{true, options.cuda_device});
  if (!options.defer_pool_filling || options.input.preload > 0) pool_->start_filling();
  spdlog::info("input {}: {} {}x{} {} @ {:.3f} fps, {}, pool {} x {:.1f} MB {}", shown_uri_, info_.codec,
               info_.width, info_.height, info_.pixel_format, info_.fps,
               nvdec_ ? std::string("NVDEC") : fmt::format("{} decoder threads", threads), pool_frames,
               layout_.frame_bytes / 1e6, to_string(options.memory));
  if (info_.quarter_turns != 0)
    spdlog::info("'{}': displayed turned {} degrees clockwise; the GPU stage turns it upright", shown_uri_,
                 90 * info_.quarter_turns);
  info_.open_s = steady_seconds() - opening_from;
  if (options.input.preload > 0) preload(options.input.preload);
  if (options.reader.decoders > 1 && !options.segments.active()) split_over_decoders();
}

void VideoReader::split_over_decoders() {
  const std::vector<std::int64_t> starts = segment_starts(input_->streams[stream_index_], 1.0);
  const bool loop = options_.input.loop;
  const std::string why = options_.live || timed_reads_ ? "it is live or a pipe"
                          : options_.input.preload > 0 ? "input.preload decodes it once"
                          : options_.input.realtime    ? "input.realtime paces it at its own rate"
                                                       : why_not_split(input_.get(), starts, loop);
  if (!why.empty()) {
    spdlog::info("'{}': reader.decoders: {} not used ({}): one decoder reads it", shown_uri_,
                 options_.reader.decoders, why);
    return;
  }
  // No decoder without a segment of its own.
  const int decoders = loop ? options_.reader.decoders
                            : std::min(options_.reader.decoders, static_cast<int>(starts.size()));
  options_.segments = {starts, 0, decoders, loop};
  segment_ = 0;
  for (int k = 1; k < decoders; ++k) {
    ReaderOptions sibling = options_;
    sibling.reader.decoders = 1;
    sibling.segments.decoder = k;
    siblings_.push_back(std::make_unique<VideoReader>(sibling));
    // An NVDEC session that did not start decodes on the CPU into another layout: its frames
    // cannot go in among this decoder's.
    if (siblings_.back()->info().decoder != info_.decoder) {
      spdlog::warn("'{}': reader.decoders: decoder {} runs as {}, the first as {}: one decoder reads it",
                   shown_uri_, k + 1, siblings_.back()->info().decoder, info_.decoder);
      siblings_.clear();
      options_.segments = {};
      return;
    }
  }
  info_.decoders = decoders;
  info_.decoder_threads *= decoders;
  std::vector<SegmentFan::Decode> decode{[this] { return decode_one(); }};
  for (auto& sibling : siblings_) decode.push_back([reader = sibling.get()] { return reader->next(); });
  // NVDEC's frames are its few surfaces: copied out, a session can run a segment ahead.
  const bool device_frames = nvdec_ && info_.decoder == "nvdec";
  copy_out_of_nvdec_ = device_frames;
  for (auto& sibling : siblings_) sibling->copy_out_of_nvdec_ = device_frames;
  const std::size_t lane = device_frames ? nvdec_lane_frames(starts) : host_lane_frames;
  fan_ = std::make_unique<SegmentFan>(std::move(decode), lane, [this] {
    stop_decoding();
    for (auto& sibling : siblings_) sibling->request_stop();
  });
  spdlog::info("'{}': split at {} keyframes{} over {} decoders", shown_uri_, starts.size(),
               loop ? " (and pass by pass)" : "", decoders);
}

std::size_t VideoReader::nvdec_lane_frames(const std::vector<std::int64_t>& starts) const {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double segment_s =
      longest_segment_s(starts, av_q2d(input_->streams[stream_index_]->time_base), info_.duration_s);
  const std::size_t frames = device_lane_frames(segment_s, info_.fps, layout_.frame_bytes, free_bytes,
                                                static_cast<int>(siblings_.size()) + 1);
  spdlog::info("'{}': each NVDEC session may run {} frames ({:.0f} MB of device memory) ahead", shown_uri_,
               frames, frames * layout_.frame_bytes / 1e6);
  return frames;
}

void VideoReader::start_pool_filling() {
  // An NVDEC input's host pool takes only frames that come in software after all: it is
  // pinned when the first one does (get_pool_buffer, to_pool_layout), not for every input
  // at the start, where 16 inputs' unused pools held the first frame back for seconds.
  if (!nvdec_) pool_->start_filling();
  for (auto& sibling : siblings_) sibling->start_pool_filling();
}

std::int64_t VideoReader::decode_errors() const {
  std::int64_t errors = decode_errors_;
  for (const auto& sibling : siblings_) errors += sibling->decode_errors();
  return errors;
}

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

void VideoReader::confirm_nvdec(const AVCodec* codec) {
  AvFramePtr first = make_frame();
  // No pool yet: a software frame here gets FFmpeg's own buffer (get_pool_buffer).
  if (!receive_into(first.get())) return;  // nothing decodes: next() will say so
  if (first->format == AV_PIX_FMT_CUDA) {
    nvdec_->wait_frame();  // mapped on this (opening) thread's stream, read on the reader's
    primed_ = std::move(first);
    return;
  }
  // FFmpeg drops to software by itself when the NVDEC session cannot start (no free
  // session, too many surfaces) and would then decode on the one thread NVDEC mode uses.
  spdlog::warn("'{}': NVDEC did not start for this input; decoding it on the CPU with {} threads instead",
               shown_uri_, options_.reader.threads > 0 ? std::to_string(options_.reader.threads) : "FFmpeg's choice of");
  first.reset();
  nvdec_failed_ = true;
  decoder_.reset();  // before nvdec_: the decoder holds NVDEC's frames
  nvdec_.reset();
  if (!options_.live) {
    // A file starts again from the top, so the CPU decoder sees every frame. A live
    // source goes on: the new decoder starts at its next keyframe.
    check_io(options_.segments.active() ? seek_to_segment_start()
                                        : av_seek_frame(input_.get(), stream_index_, 0, AVSEEK_FLAG_BACKWARD),
             "'" + shown_uri_ + "': cannot restart after NVDEC failed (seek failed)");
    input_done_ = flushed_ = false;
    packets_this_pass_ = 0;
  }
  open_decoder(codec, input_->streams[stream_index_]->codecpar);
}

AvInputPtr VideoReader::open_with_retries(const std::string& cause, const YuvLayout* expected, int* stream_index) {
  const std::string& uri = shown_uri_;
  int backoff_ms = options_.input.reconnect.backoff_ms;
  for (int attempt = 1; attempt <= options_.input.reconnect.attempts && !deadline_.stopped(); ++attempt) {
    const double wake = steady_seconds() + backoff_ms / 1e3;
    while (!deadline_.stopped() && steady_seconds() < wake) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (deadline_.stopped()) return nullptr;
    try {
      AvInputPtr input = open_input(options_.uri, options_.input, deadline_, options_.timeout_s());
      const int index = av_find_best_stream(input.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
      if (index < 0) throw InputError("'" + uri + "': no video stream");
      const AVCodecParameters* par = input->streams[index]->codecpar;
      if (expected && (par->width != expected->width || par->height != expected->height))
        throw InputError(fmt::format("'{}': came back as {}x{}, was {}x{}", uri, par->width, par->height,
                                     expected->width, expected->height));
      spdlog::info("'{}': connected (attempt {} of {})", uri, attempt, options_.input.reconnect.attempts);
      if (stream_index) *stream_index = index;
      return input;
    } catch (const InputError& e) {
      if (deadline_.stopped()) return nullptr;
      spdlog::warn("'{}': attempt {} of {} failed: {}", uri, attempt, options_.input.reconnect.attempts, e.what());
    }
    backoff_ms = std::min(backoff_ms * 2, max_backoff_ms);
  }
  if (deadline_.stopped()) return nullptr;
  throw InputError(fmt::format("'{}': {}; gave up after {} reconnect attempts", uri, cause,
                               options_.input.reconnect.attempts));
}

void VideoReader::reconnect(int error) {
  const std::string cause = deadline_.fired()    ? fmt::format("no data for {:.1f} s", options_.timeout_s())
                            : error == AVERROR_EOF ? std::string("the sender closed the stream")
                                                   : av_error_string(error);
  spdlog::warn("'{}': source lost after frame {} ({})", shown_uri_, next_index_, cause);
  input_.reset();  // a UDP port can be bound once: let go of it before listening again
  int index = -1;
  AvInputPtr input =
      open_with_retries(fmt::format("source lost after frame {} ({})", next_index_, cause), &layout_, &index);
  if (!input) {  // stopping
    input_done_ = true;
    return;
  }
  input_ = std::move(input);
  stream_index_ = index;
  ++reconnects_;
}

VideoReader::~VideoReader() {
  fan_.reset();  // a split file's decoding threads use this reader: they end first
  stop_ = true;  // frame threads still running get plain buffers, not errors
  pool_->cancel();
  decoder_.reset();  // frame threads may still be inside get_buffer2; join them first
  sws_freeContext(sws_);
}

void VideoReader::request_stop() {
  stop_decoding();
  if (fan_) fan_->request_stop();
}

void VideoReader::check_io(int status, const std::string& what) const {
  if (status >= 0) return;
  if (stopping()) throw Interrupted(what + ": stopped");
  throw InputError(what + ": " + av_error_string(status));
}

void VideoReader::stop_decoding() {
  stop_ = true;
  pool_->cancel();
}

int VideoReader::get_pool_buffer(AVCodecContext* ctx, AVFrame* frame, int flags) {
  auto* self = static_cast<VideoReader*>(ctx->opaque);
  const YuvLayout& l = self->layout_;
  if (self->stop_ || frame->format != self->pool_format_ || frame->width > self->alloc_width_ ||
      frame->height > self->alloc_height_)
    return avcodec_default_get_buffer2(ctx, frame, flags);
  if (self->nvdec_) self->pool_->start_filling();  // one decoding thread with NVDEC: no race
  AVBufferRef* buf = self->pool_->acquire(self->options_.pool_timeout);
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
    if (!options_.live && ret < 0 && deadline_.fired())
      throw InputError(fmt::format("'{}': no data for {:.1f} s after frame {} (input.timeout_ms)", shown_uri_,
                                   options_.timeout_s(), next_index_));
    if (options_.live && ret < 0 && ret != AVERROR(EAGAIN) && !stopping()) {
      // Let the decoder give up the pictures it still holds before the source is reopened.
      pending_reconnect_ = ret;
      avcodec_send_packet(decoder_.get(), nullptr);
      return true;
    }
    if (ret == AVERROR_EOF && options_.segments.active() && !stopping()) return end_segment();
    // A read cut short by a stop is the end of the input, whatever it says.
    if (ret == AVERROR_EOF || (ret < 0 && stopping())) {
      // Restart only if this pass read something: an empty stream must not spin.
      if (options_.input.loop && !stopping() && packets_this_pass_ > 0) {
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
      input_done_ = true;
      break;
    }
    check_io(ret, "'" + shown_uri_ + "': read error after frame " + std::to_string(next_index_));
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

bool VideoReader::pass_starts_with_idr(const AVPacket& packet) const {
  const AVCodecParameters* par = input_->streams[stream_index_]->codecpar;
  return LoopRestart::starts_with_idr(par->codec_id, {par->extradata, static_cast<std::size_t>(par->extradata_size)},
                                      {packet.data, static_cast<std::size_t>(packet.size)});
}

bool VideoReader::starts_next_segment(const AVPacket& packet) const {
  if (!options_.segments.active() || !(packet.flags & AV_PKT_FLAG_KEY)) return false;
  const std::int64_t decode_time = packet.dts != AV_NOPTS_VALUE ? packet.dts : packet.pts;
  return decode_time >= options_.segments.end_of(segment_);
}

int VideoReader::seek_to_segment_start() {
  // The segment starts are the index's decode times, and MOV's seek reads its target as a
  // presentation time: a backward seek to a keyframe's DTS lands a GOP early (its PTS is
  // later by the B-frame delay). A forward seek lands on the first keyframe presented at or
  // after it, which is that keyframe.
  return av_seek_frame(input_.get(), stream_index_, options_.segments.start_of(segment_), 0);
}

bool VideoReader::end_segment() {
  pending_segment_ = true;
  avcodec_send_packet(decoder_.get(), nullptr);
  return true;
}

bool VideoReader::seek_to_next_segment() {
  // A looping file whose segments decode nothing would spin for ever (as a pass of one
  // decoder would).
  empty_segments_ = frames_this_pass_ == 0 ? empty_segments_ + 1 : 0;
  frames_this_pass_ = 0;
  if (options_.segments.loop && empty_segments_ >= options_.segments.per_pass())
    throw InputError(fmt::format("'{}': {} segments in a row of input.loop decoded no frame ({} decode errors)",
                                 shown_uri_, empty_segments_, decode_errors_.load()));
  segment_ = options_.segments.after(segment_);
  if (segment_ < 0) {
    input_done_ = flushed_ = true;
    return false;
  }
  check_io(seek_to_segment_start(), "'" + shown_uri_ + "': cannot seek to its segment " + std::to_string(segment_));
  return true;
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
  AVBufferRef* buf = pool_->acquire(options_.pool_timeout);
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

AVPixelFormat VideoReader::nvdec_format() const {
  if (!primed_ || !primed_->hw_frames_ctx) return AV_PIX_FMT_NV12;
  return reinterpret_cast<const AVHWFramesContext*>(primed_->hw_frames_ctx->data)->sw_format;
}

AvFramePtr VideoReader::from_device(AvFramePtr decoded) {
  const auto* frames = reinterpret_cast<const AVHWFramesContext*>(decoded->hw_frames_ctx->data);
  if (frames->sw_format != pool_format_)
    throw InputError(fmt::format("'{}': frame {}: NVDEC changed its output from {} to {}; use reader.decoder: cpu",
                                 shown_uri_, next_index_, av_get_pix_fmt_name(pool_format_),
                                 av_get_pix_fmt_name(frames->sw_format)));
  if (decoded->width != layout_.width || decoded->height != layout_.height)
    throw InputError(fmt::format("'{}': frame {} changes size from {}x{} to {}x{} (mid-stream size changes are "
                                 "not supported: the frames before it are kept)",
                                 shown_uri_, next_index_, layout_.width, layout_.height, decoded->width,
                                 decoded->height));
  if (copy_out_of_nvdec_) return nvdec_->copy_out(*decoded);
  nvdec_->wait_frame();
  return decoded;
}

void VideoReader::throw_pass_decoded_nothing() const {
  throw InputError(fmt::format("'{}': a whole pass of input.loop decoded no frame ({} decode errors)", shown_uri_,
                               decode_errors_.load()));
}

void VideoReader::pace(std::int64_t index) {
  if (!options_.input.realtime || options_.live) return;
  const double now = steady_seconds();
  if (pace_start_ < 0) pace_start_ = now;
  const double due = pace_start_ + index / info_.fps;
  if (due > now) std::this_thread::sleep_for(std::chrono::duration<double>(due - now));
}

std::optional<DecodedFrame> VideoReader::next() {
  if (!fan_) return preloaded_.empty() ? decode_one() : replay();
  const double started = steady_seconds();
  std::optional<DecodedFrame> frame = fan_->next();
  if (!frame) return std::nullopt;
  // Numbered in file order, as one decoder would; the wait is the pipeline's for this frame.
  frame->index = fan_index_++;
  frame->source = source_;
  frame->decode_ms = (steady_seconds() - started) * 1e3;
  return frame;
}

void VideoReader::preload(int frames) {
  while (static_cast<int>(preloaded_.size()) < frames)
    if (std::optional<DecodedFrame> f = decode_one())
      preloaded_.push_back(std::move(*f));
    else
      break;
  if (preloaded_.empty()) throw InputError("'" + shown_uri_ + "': input.preload: no frame to preload");
  info_.preloaded = static_cast<int>(preloaded_.size());
  spdlog::info("'{}': {} frames preloaded into {} memory ({:.1f} MB)", shown_uri_, info_.preloaded,
               to_string(options_.memory), info_.preloaded * layout_.frame_bytes / 1e6);
}

// A preloaded frame again: a new reference to the same buffer, numbered and timed as the
// next frame of an endless stream.
std::optional<DecodedFrame> VideoReader::replay() {
  const std::size_t n = preloaded_.size();
  if (stop_ || (!options_.input.loop && replayed_ >= n)) return std::nullopt;
  const DecodedFrame& original = preloaded_[replayed_ % n];
  DecodedFrame out;
  out.frame.reset(av_frame_clone(original.frame.get()));
  if (!out.frame) throw std::bad_alloc();
  out.colour = original.colour;
  out.source = source_;
  out.stream_s = original.stream_s + static_cast<double>(replayed_ / n * n) / info_.fps;
  out.index = static_cast<std::int64_t>(replayed_++);
  out.decoded_at = steady_seconds() - clock_origin_;
  return out;
}

std::optional<DecodedFrame> VideoReader::decode_one() {
  if (stop_) return std::nullopt;
  // With frame threads decoding runs ahead in the background; what counts is how long
  // the pipeline had to wait here for the next frame.
  const double started = steady_seconds();
  AvFramePtr decoded = std::move(primed_);
  if (!decoded) {
    decoded = make_frame();
    if (!receive_into(decoded.get())) return std::nullopt;
  }
  if (nvdec_ && decoded->format != AV_PIX_FMT_CUDA && info_.decoder == "nvdec") {
    // Past the first frame (confirm_nvdec) FFmpeg can still drop to software, e.g. when
    // the stream changes; the report must say what really decoded.
    info_.decoder = "cpu (nvdec stopped)";
    spdlog::warn("'{}': NVDEC stopped at frame {}; FFmpeg decodes the rest in software on one thread",
                 shown_uri_, next_index_);
  }
  AvFramePtr frame = decoded->format == AV_PIX_FMT_CUDA ? from_device(std::move(decoded))
                                                        : to_pool_layout(std::move(decoded));
  if (!frame) return std::nullopt;
  pace(next_index_);
  DecodedFrame out;
  out.colour = colour_of(*frame);
  out.frame = std::move(frame);
  out.source = source_;
  const AVRational tb = input_ ? input_->streams[stream_index_]->time_base : AVRational{1, 1};
  // A frame without a timestamp (AVI's last B-delayed frame at a drain) follows the one before
  // it by a frame: counting from the run's first frame put a looped file's in the wrong pass.
  out.stream_s = out.frame->best_effort_timestamp == AV_NOPTS_VALUE
                     ? (next_index_ == 0 ? 0.0 : last_stream_s_ + 1.0 / info_.fps)
                     : out.frame->best_effort_timestamp * av_q2d(tb);
  last_stream_s_ = out.stream_s;
  out.index = next_index_++;
  out.segment = segment_;
  if (out.index == options_.injected.stop_in_read_after_frame) deadline_.raise_stop_at_next_check();
  const double now = steady_seconds();
  out.decoded_at = now - clock_origin_;
  out.decode_ms = (now - started) * 1e3;
  return out;
}

}  // namespace vidpipe
