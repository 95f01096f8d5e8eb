// VideoReader: opening (reader_open.cpp), decoding into the pool (reader_decode.cpp), a file
// split over decoders (reader_split.cpp) and NVDEC (reader_nvdec.cpp) are in their own
// files; here the reader is put together, and frames are handed out: decoded, replayed
// from a preload, or merged from a split file's decoders, paced for input.realtime.
#include "source/video_reader.hpp"

extern "C" {
#include <libswscale/swscale.h>
}

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

#include "base/errors.hpp"
#include "base/redact.hpp"
#include "source/nvdec.hpp"
#include "source/segment_fan.hpp"

namespace vidpipe {
namespace {

// H.264/HEVC keep up to 16 reference frames, and each frame thread holds one more.
constexpr int decoder_reference_frames = 16;

}  // namespace

VideoReader::VideoReader(const ReaderOptions& options)
    : options_(options), shown_uri_(redacted_uri(options.uri)), packet_(make_packet()) {
  const double opening_from = steady_seconds();
  info_.uri = shown_uri_;
  // An http:// file that never answers hung the run: every network read has a deadline.
  timed_reads_ = options.live || is_named_pipe(options.uri) || is_network_uri(options.uri);
  const AVCodec* codec = open_stream();
  if (options_.reader.decoders.splits() && !options_.segments.active()) plan_split();
  open_decoder(codec, input_->streams[stream_index_]->codecpar);
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
  describe_stream(codec);
  make_pool();
  if (info_.quarter_turns != 0)
    spdlog::info("'{}': displayed turned {} degrees clockwise; the GPU stage turns it upright", shown_uri_,
                 90 * info_.quarter_turns);
  info_.open_s = steady_seconds() - opening_from;
  if (options.input.preload > 0) preload(options.input.preload);
  if (options.start_fraction > 0) start_part_way();
  if (!split_kinds_.empty()) split_over_decoders();
}

void VideoReader::make_pool() {
  const int threads = decoder_->thread_count > 0 ? decoder_->thread_count : 1;
  info_.decoder_threads = threads;
  // With NVDEC the host pool only takes frames that arrive in software after all.
  const int pool_frames = options_.reader.pool_frames > 0 ? options_.reader.pool_frames
                          : nvdec_                 ? options_.in_flight + 2
                                                   : decoder_reference_frames + threads + options_.in_flight + 2 +
                                                         options_.input.preload;
  // Pinned in the background: the decoder starts on the first buffer (frame_pool.hpp).
  pool_ = std::make_unique<FramePool>(pool_frames, layout_.frame_bytes, options_.memory,
                                      PoolFilling{true, options_.cuda_device});
  if (!options_.defer_pool_filling || options_.input.preload > 0) pool_->start_filling();
  spdlog::info("input {}: {} {}x{} {} @ {:.3f} fps, {}, pool {} x {:.1f} MB {}", shown_uri_, info_.codec,
               info_.width, info_.height, info_.pixel_format, info_.fps,
               nvdec_ ? std::string("NVDEC") : fmt::format("{} decoder threads", threads), pool_frames,
               layout_.frame_bytes / 1e6, to_string(options_.memory));
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

void VideoReader::stop_decoding() {
  stop_ = true;
  pool_->cancel();
}

void VideoReader::check_io(int status, const std::string& what) const {
  if (status >= 0) return;
  if (stopping()) throw Interrupted(what + ": stopped");
  throw InputError(what + ": " + av_error_string(status));
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

std::optional<DecodedFrame> VideoReader::decode_one() {
  if (stop_) return std::nullopt;
  // With frame threads decoding runs ahead in the background; what counts is how long
  // the pipeline had to wait here for the next frame.
  const double started = steady_seconds();
  AvFramePtr decoded = std::move(primed_);
  if (!decoded) {
    decoded = make_frame();
    if (!receive_from_start(decoded.get())) return std::nullopt;
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
  if (options_.segments.active() && options_.segments.decoder == options_.injected.slow_decoder)
    std::this_thread::sleep_for(std::chrono::milliseconds(options_.injected.slow_decoder_ms));
  DecodedFrame out;
  out.colour = colour_of(*frame);
  out.frame = std::move(frame);
  out.source = source_;
  const AVRational tb = input_ ? input_->streams[stream_index_]->time_base : AVRational{1, 1};
  // A frame without a timestamp (AVI's last B-delayed frame at a drain) follows the one before
  // it by a frame: counting from the run's first frame put a looped file's in the wrong pass.
  const double file_s = out.frame->best_effort_timestamp == AV_NOPTS_VALUE
                            ? (next_index_ == 0 ? 0.0 : last_file_s_ + 1.0 / info_.fps)
                            : out.frame->best_effort_timestamp * av_q2d(tb);
  if (file_s < last_file_s_) start_offset_s_ = 0;  // looped: later passes keep the file's times
  last_file_s_ = file_s;
  out.stream_s = file_s - start_offset_s_;
  out.index = next_index_++;
  out.segment = segment_;
  if (out.index == options_.injected.stop_in_read_after_frame) deadline_.raise_stop_at_next_check();
  const double now = steady_seconds();
  out.decoded_at = now - clock_origin_;
  out.decode_ms = (now - started) * 1e3;
  return out;
}

void VideoReader::pace(std::int64_t index) {
  if (!options_.input.realtime || options_.live) return;
  const double now = steady_seconds();
  if (pace_start_ < 0) pace_start_ = now;
  const double due = pace_start_ + index / info_.fps;
  if (due > now) std::this_thread::sleep_for(std::chrono::duration<double>(due - now));
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
  const std::size_t played = replayed_ + replay_offset_;  // input.stagger starts part way through
  const DecodedFrame& original = preloaded_[played % n];
  DecodedFrame out;
  out.frame.reset(av_frame_clone(original.frame.get()));
  if (!out.frame) throw std::bad_alloc();
  out.colour = original.colour;
  out.source = source_;
  out.stream_s = original.stream_s + static_cast<double>(played / n * n) / info_.fps - start_offset_s_;
  out.index = static_cast<std::int64_t>(replayed_++);
  out.decoded_at = steady_seconds() - clock_origin_;
  return out;
}

}  // namespace vidpipe
