// VideoReader, a file split over several decoders (reader.decoders): the other decoders,
// each at its own segments (segment_plan.hpp), and the fan that merges their frames back
// into file order (segment_fan.hpp).
#include "source/video_reader.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <utility>

#include "base/errors.hpp"
#include "common/cuda_check.hpp"
#include "source/nvdec.hpp"
#include "source/segment_fan.hpp"

namespace vidpipe {

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
  options_.segments = {starts, 0, decoders, loop, std::make_shared<SegmentDealer>(decoders, starts.size(), loop)};
  segment_ = options_.segments.first();  // 0: the first to ask
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
  fan_ = std::make_unique<SegmentFan>(std::move(decode), lane, options_.segments.dealer, [this] {
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
  const std::int64_t frames = std::exchange(frames_this_pass_, 0);
  if (options_.segments.loop && empty_segments_ >= options_.segments.per_pass())
    throw InputError(fmt::format("'{}': {} segments in a row of input.loop decoded no frame ({} decode errors)",
                                 shown_uri_, empty_segments_, decode_errors_.load()));
  segment_ = options_.segments.after(segment_, frames);
  if (segment_ < 0) {
    input_done_ = flushed_ = true;
    return false;
  }
  check_io(seek_to_segment_start(), "'" + shown_uri_ + "': cannot seek to its segment " + std::to_string(segment_));
  return true;
}

}  // namespace vidpipe
