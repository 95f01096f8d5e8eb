// VideoReader, opening and demuxing: the input (with retries for a live source that is not
// there yet or was lost), its video stream, and what the stream says of itself (VideoInfo).
#include "source/video_reader.hpp"

extern "C" {
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "base/errors.hpp"
#include "memory/frame_layout.hpp"
#include "source/pixel_formats.hpp"

namespace vidpipe {
namespace {

constexpr int max_dimension = 16384;
constexpr int max_backoff_ms = 8000;

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

const AVCodec* VideoReader::open_stream() {
  try {
    input_ = open_input(options_.uri, options_.input, deadline_, timed_reads_ ? options_.timeout_s() : 0);
  } catch (const InputError& e) {
    if (deadline_.stopped()) throw StoppedBeforeStart("stopped while '" + shown_uri_ + "' was opening");
    // A network sender may start after us; a missing camera or file will not appear.
    if (!options_.live || is_camera_uri(options_.uri) || options_.input.reconnect.attempts == 0) throw;
    spdlog::warn("{}; retrying", e.what());
    input_ = open_with_retries(e.what(), nullptr, nullptr);
    if (!input_) throw StoppedBeforeStart("stopped while '" + shown_uri_ + "' was opening");
  }
  const AVCodec* codec = nullptr;
  stream_index_ = av_find_best_stream(input_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (stream_index_ == AVERROR_DECODER_NOT_FOUND)
    throw InputError("'" + shown_uri_ + "': no decoder for its video codec");
  if (stream_index_ < 0) throw InputError("'" + shown_uri_ + "': no video stream");
  const AVCodecParameters* par = input_->streams[stream_index_]->codecpar;
  if (par->width <= 0 || par->height <= 0)
    throw InputError("'" + shown_uri_ + "': its header gives no picture size (a broken or truncated file?)");
  if (par->width > max_dimension || par->height > max_dimension)
    throw InputError("'" + shown_uri_ + "': unsupported frame size " + std::to_string(par->width) + "x" +
                     std::to_string(par->height) + " (1.." + std::to_string(max_dimension) + ")");
  return codec;
}

void VideoReader::describe_stream(const AVCodec* codec) {
  const AVStream* stream = input_->streams[stream_index_];
  const AVCodecParameters* par = stream->codecpar;
  info_.codec = codec->name;
  const AVPixelFormat decoded_format = nvdec_ ? nvdec_format() : decoder_->pix_fmt;
  const char* fmt_name = av_get_pix_fmt_name(decoded_format);
  info_.pixel_format = fmt_name ? fmt_name : "unknown";
  info_.decoder = nvdec_ ? "nvdec" : nvdec_failed_ ? "cpu (nvdec did not start)" : "cpu";
  info_.width = par->width;
  info_.height = par->height;
  const AVRational rate = stream->avg_frame_rate.num > 0 ? stream->avg_frame_rate : stream->r_frame_rate;
  if (rate.num > 0 && rate.den > 0) info_.fps = av_q2d(rate);
  info_.frame_count = options_.live ? 0 : stream->nb_frames;
  if (!options_.live)
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
  reconnecting_ = true;
  AvInputPtr input;
  try {
    input = open_with_retries(fmt::format("source lost after frame {} ({})", next_index_, cause), &layout_, &index);
  } catch (...) {
    reconnecting_ = false;
    throw;
  }
  reconnecting_ = false;
  if (!input) {  // stopping
    input_done_ = true;
    return;
  }
  input_ = std::move(input);
  stream_index_ = index;
  ++reconnects_;
}

}  // namespace vidpipe
