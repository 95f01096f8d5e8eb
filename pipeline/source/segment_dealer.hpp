// Which decoder of a split file (segment_plan.hpp) decodes which segment, handed out as the
// decoders ask rather than round-robin, by each one's measured rate. The frames are read
// back in file order (segment_fan.hpp), so a segment given to a slow decoder holds up the
// reading when it comes due before that decoder is done. Here a decoder takes the lowest
// segment nobody has, unless it is clearly slower than the fastest, when it takes one far
// enough ahead to be done when the reading gets there (meanwhile the others read the
// segments before it, and its frames wait in its lane). Until every decoder has finished a
// segment the rates are the expected ones given (a CPU decoder beside NVDEC sessions), or
// unknown, and segments then go lowest first: round-robin.
//
// Written here rather than taken from a library: the policy is a few lines over a map,
// and it is what the tests pin down (a controllable clock, no sleeps).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace vidpipe {

class SegmentDealer {
 public:
  // `per_pass`: segments in the file; a looping input's segments go on pass after pass.
  // `expected_fps` (one per decoder, any unit, or empty): each decoder's rate until it has
  // measured its own, so that decoders of different kinds are dealt by rate from the first
  // claim; without it the first segments go lowest first.
  SegmentDealer(int decoders, std::int64_t per_pass, bool loop, std::vector<double> expected_fps = {});

  // Decoder k's next segment, after its last one; -1 when none is left. `now_s`: seconds on
  // any steady clock (the one the rates are measured with).
  std::int64_t claim(int decoder, double now_s);
  // Decoder k has decoded its segment's `frames`; `now_s` as for claim. Its rate is frames
  // over the time from its claims to its finishes, less the time it was blocked (blocked()).
  void finished(int decoder, std::int64_t frames, double now_s);
  // Decoder k waited `seconds` for room in its lane (not decoding).
  void blocked(int decoder, double seconds);
  // Decoder k takes no more segments (its end, an error, a stop).
  void ended(int decoder);

  // Who decodes `segment`, once someone has claimed it; -1 past the file's end, once
  // closed, or when every decoder has ended without claiming it. The reader of the fan
  // calls it, segment after segment, which also says where the reading is.
  int owner(std::int64_t segment);
  // The fan reads this segment now (owner() says so too): segments ahead are counted from it.
  void reading(std::int64_t segment);
  void close();

  struct DecoderFigures {
    std::int64_t segments = 0, frames = 0;
    double busy_s = 0;  // decoding, the blocked time left out
    double fps() const { return busy_s > 0 ? static_cast<double>(frames) / busy_s : 0; }
  };
  std::vector<DecoderFigures> figures() const;

  // A decoder at least this share of the fastest one's rate takes the lowest free segment.
  static constexpr double fast_share = 0.8;
  // The most segments a slow decoder looks ahead of where it could start.
  static constexpr double max_ahead = 16;

 private:
  struct Decoder {
    DecoderFigures figures;
    std::int64_t last = -1;   // its latest segment
    double claimed_at = 0, blocked_s = 0;  // since that claim
    bool alive = true;
  };
  bool valid(std::int64_t segment) const { return segment >= 0 && (loop_ || segment < per_pass_); }
  std::int64_t free_after(std::int64_t segment) const;  // the lowest unclaimed segment above it
  bool rates_known() const;
  double rate(int decoder) const;  // measured, else expected, else 0
  double fastest_rate() const;
  bool fast(int decoder) const;
  // Whether an alive fast decoder other than `decoder` can still take `segment`.
  bool covered(std::int64_t segment, int decoder) const;
  std::int64_t pick(int decoder) const;

  const std::int64_t per_pass_;
  const bool loop_;
  mutable std::mutex mutex_;
  std::condition_variable claimed_;
  std::vector<Decoder> decoders_;
  std::vector<double> expected_fps_;
  std::map<std::int64_t, int> owners_;  // claimed segments not yet read past
  std::int64_t reading_ = 0;            // the segment the fan reads
  bool closed_ = false;
};

}  // namespace vidpipe
