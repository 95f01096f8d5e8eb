// input.stagger: an input that starts part way into its file. Copies of one file started
// together reach their keyframes together, so their decoders' costly frames come at once
// and the pipeline sees bursts no set of real cameras makes (docs/BENCHMARKS.md, keyframe
// phase). Seeking is what a camera switched on later looks like: the decoder starts at the
// keyframe before the start and the frames up to it are decoded but not handed out.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "source/video_reader.hpp"

namespace vidpipe {

void VideoReader::start_part_way() {
  const double fraction = options_.start_fraction;
  if (!preloaded_.empty()) {  // a capture card's frames: the replay starts part way through them
    replay_offset_ = static_cast<std::size_t>(fraction * static_cast<double>(preloaded_.size()));
    // Its times go on from the first preloaded frame's, as an input's times start at its start.
    start_offset_s_ = preloaded_[replay_offset_].stream_s - preloaded_.front().stream_s;
    return;
  }
  if (options_.live || info_.is_still || options_.segments.active()) return;
  if (!split_kinds_.empty()) {
    spdlog::info("'{}': input.stagger: a file split over reader.decoders starts at its beginning", shown_uri_);
    return;
  }
  if (info_.duration_s <= 0) {
    spdlog::warn("'{}': input.stagger: the file does not say how long it is; it starts at its beginning", shown_uri_);
    return;
  }
  // The loop's restart is decided by the file's own first packet (loop_restart.hpp): read it
  // before leaving the start, as feed_decoder would have.
  if (packets_this_pass_ == 0 && loop_feeds_on_) {
    while (av_read_frame(input_.get(), packet_.get()) >= 0) {
      const bool ours = packet_->stream_index == stream_index_;
      if (ours) loop_feeds_on_ = pass_starts_with_idr(*packet_);
      av_packet_unref(packet_.get());
      if (ours) break;
    }
  }
  packets_this_pass_ = std::max<std::int64_t>(packets_this_pass_, 1);
  const AVStream* stream = input_->streams[stream_index_];
  const double start_time = stream->start_time == AV_NOPTS_VALUE ? 0.0 : stream->start_time * av_q2d(stream->time_base);
  start_at_s_ = start_time + fraction * info_.duration_s;
  start_offset_s_ = -start_time;  // receive_from_start adds the first frame's time: its times start as the file's
  primed_.reset();  // confirm_nvdec's frame is from the file's start
  avcodec_flush_buffers(decoder_.get());
  check_io(av_seek_frame(input_.get(), stream_index_, std::llround(start_at_s_ / av_q2d(stream->time_base)),
                         AVSEEK_FLAG_BACKWARD),
           fmt::format("'{}': input.stagger: cannot seek to {:.3f} s", shown_uri_, start_at_s_));
  info_.start_s = start_at_s_ - start_time;
  spdlog::debug("'{}': input.stagger: starts at {:.3f} s of {:.3f} s", shown_uri_, start_at_s_, info_.duration_s);
}

// receive_into, letting go of the frames before input.stagger's start. A frame with no
// timestamp, or one earlier than the last let go (the file ended and looped before the
// start came), ends the skipping too: nothing is let go for ever.
bool VideoReader::receive_from_start(AVFrame* out) {
  double last_let_go = -std::numeric_limits<double>::infinity();
  while (receive_into(out)) {
    if (std::isnan(start_at_s_)) return true;
    const double at = out->best_effort_timestamp == AV_NOPTS_VALUE
                          ? start_at_s_
                          : out->best_effort_timestamp * av_q2d(input_->streams[stream_index_]->time_base);
    // Half a frame's slack: the start is a time, a frame's timestamp is rounded to its time base.
    if (at + 0.5 / info_.fps >= start_at_s_ || at < last_let_go) {
      start_at_s_ = std::numeric_limits<double>::quiet_NaN();
      if (at >= last_let_go) {
        start_offset_s_ += at;
        last_file_s_ = at;
      } else {
        start_offset_s_ = 0;  // the file looped before the start came: its own times
      }
      return true;
    }
    last_let_go = at;
    av_frame_unref(out);
  }
  return false;
}

}  // namespace vidpipe
