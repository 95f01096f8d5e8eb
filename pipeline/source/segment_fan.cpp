#include "source/segment_fan.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/clock.hpp"

namespace vidpipe {

std::size_t device_lane_frames(double segment_s, double fps, std::size_t frame_bytes, std::size_t free_bytes,
                               int lanes) {
  // One more than the segment: its last frame queued, the next segment's first held.
  const auto segment_frames = static_cast<std::size_t>(std::ceil(segment_s * fps)) + 1;
  const std::size_t affordable = free_bytes / 4 / static_cast<std::size_t>(std::max(lanes, 1)) /
                                 std::max<std::size_t>(frame_bytes, 1);
  return std::max(host_lane_frames, std::min(segment_frames, affordable));
}

SegmentFan::SegmentFan(std::vector<Decode> decoders, std::vector<std::size_t> lane_frames,
                       std::shared_ptr<SegmentDealer> dealer,
                       std::function<void()> stop_all)
    : decoders_(std::move(decoders)), dealer_(std::move(dealer)), stop_all_(std::move(stop_all)),
      lanes_(decoders_.size()) {
  for (std::size_t k = 0; k < lanes_.size(); ++k)
    lanes_[k].queue = std::make_unique<BlockingQueue<DecodedFrame>>(lane_frames.at(k));
}

SegmentFan::~SegmentFan() {
  request_stop();
  for (std::thread& t : threads_) t.join();
}

void SegmentFan::start() {
  if (!threads_.empty()) return;
  for (std::size_t k = 0; k < decoders_.size(); ++k) threads_.emplace_back([this, k] { produce(k); });
}

void SegmentFan::produce(std::size_t k) {
  try {
    while (std::optional<DecodedFrame> frame = decoders_[k]()) {
      const double waiting_from = steady_seconds();
      if (!lanes_[k].queue->push(std::move(*frame))) break;
      // Time its lane was full is not decoding: the dealer leaves it out of its rate.
      if (dealer_) dealer_->blocked(static_cast<int>(k), steady_seconds() - waiting_from);
    }
  } catch (...) {
    {
      std::lock_guard lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
    }
    request_stop();
  }
  if (dealer_) dealer_->ended(static_cast<int>(k));
  lanes_[k].queue->close();
}

int SegmentFan::lane_of_segment() {
  if (dealer_) return dealer_->owner(segment_);
  const bool any = std::any_of(lanes_.begin(), lanes_.end(), [](const Lane& l) { return !l.ended || l.held; });
  return any ? static_cast<int>(segment_ % static_cast<std::int64_t>(lanes_.size())) : -1;
}

std::optional<DecodedFrame> SegmentFan::next() {
  start();
  for (int k = lane_of_segment(); k >= 0; k = lane_of_segment()) {
    Lane& lane = lanes_[k];
    std::optional<DecodedFrame> frame = lane.held ? std::exchange(lane.held, std::nullopt)
                                        : lane.ended ? std::nullopt
                                                     : lane.queue->pop();
    if (!frame) {  // this decoder has ended: none of its segments is left
      rethrow();
      lane.ended = true;
      ++segment_;
      continue;
    }
    if (frame->segment == segment_) return frame;
    lane.held = std::move(frame);  // the decoder has moved on: this segment is over
    ++segment_;
  }
  rethrow();
  return std::nullopt;
}

void SegmentFan::request_stop() {
  if (dealer_) dealer_->close();
  stop_all_();
  for (Lane& lane : lanes_) lane.queue->close();
}

void SegmentFan::rethrow() {
  std::lock_guard lock(error_mutex_);
  if (error_) std::rethrow_exception(error_);
}

}  // namespace vidpipe
