#include "source/segment_plan.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/clock.hpp"

namespace vidpipe {

std::int64_t SegmentPlan::first() const {
  if (dealer) return dealer->claim(decoder, steady_seconds());
  return valid(decoder) ? decoder : -1;
}

std::int64_t SegmentPlan::after(std::int64_t segment, std::int64_t frames) const {
  if (!dealer) return valid(segment + decoders) ? segment + decoders : -1;
  const double now = steady_seconds();
  dealer->finished(decoder, frames, now);
  return dealer->claim(decoder, now);
}

std::int64_t SegmentPlan::end_of(std::int64_t segment) const {
  const std::int64_t next = segment % per_pass() + 1;
  return next < per_pass() ? starts[next] : std::numeric_limits<std::int64_t>::max();
}

std::vector<std::int64_t> segment_starts(const AVStream* stream, double min_spacing_s) {
  std::vector<std::int64_t> starts;
  const double seconds_per_tick = av_q2d(stream->time_base);
  const int entries = avformat_index_get_entries_count(stream);
  for (int i = 0; i < entries; ++i) {
    const AVIndexEntry* entry = avformat_index_get_entry(const_cast<AVStream*>(stream), i);
    if (!entry || !(entry->flags & AVINDEX_KEYFRAME)) continue;
    if (!starts.empty() && (entry->timestamp - starts.back()) * seconds_per_tick < min_spacing_s) continue;
    starts.push_back(entry->timestamp);
  }
  return starts;
}

double longest_segment_s(const std::vector<std::int64_t>& starts, double seconds_per_tick, double duration_s) {
  if (starts.empty()) return duration_s;
  double longest = duration_s - static_cast<double>(starts.back() - starts.front()) * seconds_per_tick;
  for (std::size_t i = 1; i < starts.size(); ++i)
    longest = std::max(longest, static_cast<double>(starts[i] - starts[i - 1]) * seconds_per_tick);
  return longest;
}

std::string why_not_split(const AVFormatContext* input, const std::vector<std::int64_t>& starts, bool loop) {
  const char* format = input->iformat ? input->iformat->name : "";
  if (std::strstr(format, "mov") == nullptr) return "only MP4/MOV files are split at their keyframes";
  if (starts.empty()) return "its index lists no keyframe";
  if (starts.size() == 1 && !loop) return "it has one keyframe and does not loop (input.loop)";
  return "";
}

}  // namespace vidpipe
