// The frames of several decoders of one file, back in file order (segment_plan.hpp):
// each decoder runs on a thread of its own into a short queue, tagging every frame with
// its segment; next() takes segment after segment from the decoder that has it. When a
// decoder hands over a frame of a later segment, the segment being read has ended; that
// frame waits at the head of its decoder's queue until its turn.
//
// How far a decoder may run ahead (its lane) decides whether the decoders really decode at
// once: with K decoders, decoder k's next segment can only be decoded while the K - 1
// segments before it are read, so a lane shorter than a segment makes them take turns.
#pragma once
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "base/blocking_queue.hpp"
#include "source/segment_dealer.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

class SegmentFan {
 public:
  // One function per decoder, in decoder order: each returns its next frame, nullopt at
  // its end. Decoder k may queue `lane_frames[k]` frames ahead of its turn. `dealer` says which
  // decoder has which segment (null: decoder k has k, k + K, ...). `stop_all` makes all of
  // them return soon.
  using Decode = std::function<std::optional<DecodedFrame>()>;
  SegmentFan(std::vector<Decode> decoders, std::vector<std::size_t> lane_frames, std::shared_ptr<SegmentDealer> dealer,
             std::function<void()> stop_all);
  ~SegmentFan();
  SegmentFan(const SegmentFan&) = delete;
  SegmentFan& operator=(const SegmentFan&) = delete;

  // The next frame in file order; nullopt when every decoder has ended. Rethrows the first
  // decoder's error. The decoders start on the first call.
  std::optional<DecodedFrame> next();
  void request_stop();

 private:
  struct Lane {
    std::unique_ptr<BlockingQueue<DecodedFrame>> queue;
    std::optional<DecodedFrame> held;  // a later segment's first frame, waiting its turn
    bool ended = false;
  };
  void start();
  void produce(std::size_t k);
  void rethrow();
  // The lane that has the segment being read; -1 when there is none (the end).
  int lane_of_segment();

  std::vector<Decode> decoders_;
  std::shared_ptr<SegmentDealer> dealer_;
  std::function<void()> stop_all_;
  std::vector<Lane> lanes_;
  std::vector<std::thread> threads_;
  std::int64_t segment_ = 0;  // the segment next() reads now
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

// Host frames: a few, since each decoder's pool bounds them anyway (a deeper lane would
// only move the wait into the pool, whose long waits mean a deadlock).
constexpr std::size_t host_lane_frames = 4;

// Device frames copied out of NVDEC (NvdecDecoder::copy_out): a whole segment, within a
// quarter of the device's free memory shared by the lanes, and never fewer than host
// frames get.
std::size_t device_lane_frames(double segment_s, double fps, std::size_t frame_bytes, std::size_t free_bytes,
                               int lanes);

}  // namespace vidpipe
