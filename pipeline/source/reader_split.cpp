// VideoReader, a file split over several decoders (reader.decoders): the other decoders,
// each at its own segments (segment_plan.hpp), and the fan that merges their frames back
// into file order (segment_fan.hpp).
#include "source/video_reader.hpp"

extern "C" {
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>

#include "base/errors.hpp"
#include "common/cuda_check.hpp"
#include "memory/cuda_raii.hpp"
#include "memory/frame_layout.hpp"
#include "source/nvdec.hpp"
#include "source/segment_fan.hpp"

namespace vidpipe {

void VideoReader::plan_split() {
  split_starts_ = segment_starts(input_->streams[stream_index_], 1.0);
  const bool loop = options_.input.loop;
  const std::string why = options_.live || timed_reads_ ? "it is live or a pipe"
                          : options_.input.preload > 0 ? "input.preload decodes it once"
                          : options_.input.realtime    ? "input.realtime paces it at its own rate"
                                                       : why_not_split(input_.get(), split_starts_, loop);
  const DecoderList& asked = options_.reader.decoders;
  if (!why.empty()) {
    spdlog::info("'{}': reader.decoders: {} not used ({}): one decoder reads it", shown_uri_,
                 nlohmann::json(asked).dump(), why);
    // A list's first kind, as it would have been the first decoder: the CPU where it names one.
    if (asked.automatic || !asked.kinds.empty()) options_.reader.decoder = asked.resolve(options_.reader.decoder, false).front();
    return;
  }
  split_kinds_ = asked.resolve(options_.reader.decoder, cuda::device_count() > options_.cuda_device);
  // No decoder without a segment of its own.
  if (!loop && split_kinds_.size() > split_starts_.size()) split_kinds_.resize(split_starts_.size());
  options_.reader.decoder = split_kinds_.front();
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options_.reader.threads = split_cpu_threads(options_.reader, split_kinds_, cores);
}

void VideoReader::split_over_decoders() {
  if (split_kinds_.size() < 2) {
    split_kinds_.clear();
    return;
  }
  // A decoder whose frames cannot go in among the first one's is left out, and the others
  // start again without it (each has claimed a segment of the plan by then).
  for (int misfit = start_siblings(); misfit > 0; misfit = start_siblings())
    split_kinds_.erase(split_kinds_.begin() + misfit);
  if (siblings_.empty()) {
    split_kinds_.clear();
    options_.segments = {};
    segment_ = 0;
    return;
  }
  const int decoders = static_cast<int>(split_kinds_.size());
  int sessions = 0, threads = 0;
  std::string names;  // as they run: an NVDEC session that did not start decodes on the CPU
  const std::vector<const VideoReader*> readers = all_decoders();
  for (std::size_t k = 0; k < readers.size(); ++k) {
    sessions += readers[k]->nvdec_ != nullptr;
    threads += readers[k]->info_.decoder_threads;
    names += (k == 0 ? "" : ", ") + readers[k]->info_.decoder;
    split_kinds_[k] = readers[k]->nvdec_ ? Decoder::nvdec : Decoder::cpu;
  }
  info_.decoders = decoders;
  info_.decoder_threads = threads;
  if (sessions > 0 && !nvdec_) info_.decoder = "cpu+nvdec";
  std::vector<SegmentFan::Decode> decode{[this] { return decode_one(); }};
  std::vector<std::size_t> lanes{nvdec_ ? 0 : host_lane_frames};
  for (auto& sibling : siblings_) {
    decode.push_back([reader = sibling.get()] { return reader->next(); });
    lanes.push_back(sibling->nvdec_ ? 0 : host_lane_frames);
  }
  // NVDEC's frames are its few surfaces: copied out, a session can run a segment ahead.
  const std::size_t device_lane = sessions > 0 ? nvdec_lane_frames(split_starts_, sessions) : 0;
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    if (lanes[k] != 0) continue;
    lanes[k] = device_lane;
    (k == 0 ? this : siblings_[k - 1].get())->copy_out_of_nvdec_ = true;
  }
  fan_ = std::make_unique<SegmentFan>(std::move(decode), std::move(lanes), options_.segments.dealer, [this] {
    stop_decoding();
    for (auto& sibling : siblings_) sibling->request_stop();
  });
  spdlog::info("'{}': split at {} keyframes{} over {} decoders ({})", shown_uri_, split_starts_.size(),
               options_.segments.loop ? " (and pass by pass)" : "", decoders, names);
}

int VideoReader::start_siblings() {
  siblings_.clear();
  const int decoders = static_cast<int>(split_kinds_.size());
  const bool loop = options_.input.loop;
  options_.segments = {split_starts_, 0, decoders, loop,
                       std::make_shared<SegmentDealer>(decoders, split_starts_.size(), loop, expected_rates())};
  segment_ = options_.segments.first();  // 0: the first to ask
  for (int k = 1; k < decoders; ++k) {
    ReaderOptions sibling = options_;
    sibling.reader.decoder = split_kinds_[k];
    sibling.reader.decoders = {};
    sibling.segments.decoder = k;
    siblings_.push_back(std::make_unique<VideoReader>(sibling));
    const std::string misfit = why_frames_differ(*siblings_.back());
    if (misfit.empty()) continue;
    spdlog::warn("'{}': reader.decoders: decoder {} ({}) left out: {}", shown_uri_, k + 1,
                 siblings_.back()->info().decoder, misfit);
    siblings_.clear();
    return k;
  }
  return 0;
}

std::string VideoReader::why_frames_differ(const VideoReader& sibling) const {
  const VideoInfo& other = sibling.info();
  if (other.width != info_.width || other.height != info_.height)
    return fmt::format("it decodes {}x{}, the first decoder {}x{}", other.width, other.height, info_.width, info_.height);
  const bool same_kind = (sibling.nvdec_ != nullptr) == (nvdec_ != nullptr);
  if (same_kind) return same_layout(sibling.layout_, layout_) ? "" : "its frames are laid out differently";
  // NVDEC's NV12 goes into a CPU decoder's three 8-bit planes on the device (split_chroma).
  if (sibling.nvdec_ && sibling.pool_format_ == AV_PIX_FMT_NV12 && pool_format_ == AV_PIX_FMT_YUV420P) return "";
  return fmt::format("it writes {}, the first decoder {} (the kinds mix for 8-bit 4:2:0 only)",
                     av_get_pix_fmt_name(sibling.pool_format_), av_get_pix_fmt_name(pool_format_));
}

std::vector<double> VideoReader::expected_rates() const {
  const bool mixed = std::count(split_kinds_.begin(), split_kinds_.end(), Decoder::cpu) > 0 &&
                     std::count(split_kinds_.begin(), split_kinds_.end(), Decoder::nvdec) > 0;
  if (!mixed) return {};
  // 4K H.264 on the lent GPUs' 16 cores: the CPU decoder 385 fps, an NVDEC session 95-141
  // (docs/BENCHMARKS.md). Only the ratio counts, and only until each decoder has measured
  // its own rate over its first segment.
  std::vector<double> rates;
  for (Decoder kind : split_kinds_) rates.push_back(kind == Decoder::cpu ? 2.5 : 1.0);
  return rates;
}

std::vector<const VideoReader*> VideoReader::all_decoders() const {
  std::vector<const VideoReader*> readers{this};
  for (const auto& sibling : siblings_) readers.push_back(sibling.get());
  return readers;
}

std::size_t VideoReader::nvdec_lane_frames(const std::vector<std::int64_t>& starts, int sessions) const {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double segment_s =
      longest_segment_s(starts, av_q2d(input_->streams[stream_index_]->time_base), info_.duration_s);
  const std::size_t frames = device_lane_frames(segment_s, info_.fps, layout_.frame_bytes, free_bytes,
                                                sessions);
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
