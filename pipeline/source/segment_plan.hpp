// One file decoded by several decoders at once (reader.decoders): the file is cut at its
// keyframes into segments, each decoder asks the dealer for its next segment
// (segment_dealer.hpp: by the decoders' measured rates) and the frames are put back in order
// (segment_fan.hpp). A looping input repeats the segments pass
// after pass, so even a file of one GOP is split, a pass a segment.
//
// One NVDEC session decodes about 170 fps of 4K H.264 on the H200 and sessions add up
// (docs/BENCHMARKS.md, issue 5): splitting one file is how a single stream gets more.
#pragma once
extern "C" {
#include <libavformat/avformat.h>
}

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "source/segment_dealer.hpp"

namespace vidpipe {

struct SegmentPlan {
  // Each segment's first packet's decode timestamp (the stream's time base), in file order.
  std::vector<std::int64_t> starts;
  int decoder = 0;   // which of the decoders this plan is for
  int decoders = 1;  // 1: the file is not split
  bool loop = false;
  std::shared_ptr<SegmentDealer> dealer;  // shared by the decoders; null: k, k + K, k + 2K, ...

  bool active() const { return decoders > 1 && !starts.empty(); }
  std::int64_t per_pass() const { return static_cast<std::int64_t>(starts.size()); }
  // This decoder's first segment, or -1 when it has none.
  std::int64_t first() const;
  // The segment this decoder takes after `segment`, `frames` of which it decoded; -1 when
  // none is left.
  std::int64_t after(std::int64_t segment, std::int64_t frames) const;
  std::int64_t start_of(std::int64_t segment) const { return starts[segment % per_pass()]; }
  // The next segment's start in the file; INT64_MAX for a pass's last segment (it ends at EOF).
  std::int64_t end_of(std::int64_t segment) const;

 private:
  bool valid(std::int64_t segment) const { return segment >= 0 && (loop || segment < per_pass()); }
};

// Segment starts from the demuxer's index: keyframes at least `min_spacing_s` apart (a
// scene cut's keyframe a few frames after the last would make a segment too short to be
// worth a decoder's drain). Empty when the stream has no index.
std::vector<std::int64_t> segment_starts(const AVStream* stream, double min_spacing_s);

// The longest segment's length in seconds: the largest gap between starts, or from the
// last start to the end of the stream (`duration_s` after the first start), whichever is
// longer. A segment's frames are about this times the frame rate.
double longest_segment_s(const std::vector<std::int64_t>& starts, double seconds_per_tick, double duration_s);

// Why this input cannot be split over decoders ("" when it can): only MP4/MOV files are
// cut (their index gives every keyframe, and their packets' decode timestamps match it).
std::string why_not_split(const AVFormatContext* input, const std::vector<std::int64_t>& starts, bool loop);

}  // namespace vidpipe
