// How far behind live each input's frames leave the sink, against the stream's own
// clock: the earliest any frame came out relative to its timestamp is "on time", and
// a frame's lag is how much later than that it came out. Flat when the pipeline
// keeps up (or drops to), growing when frames back up (input.drop: none).
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace vidpipe {

class LiveLagClock {
 public:
  explicit LiveLagClock(int inputs) : anchor_(inputs, std::nan("")), last_stream_s_(inputs, 0.0) {}

  // Sink thread only. A stream clock that goes back (a loop, a reconnect) restarts
  // the anchor, since its timestamps no longer line up with the earlier ones.
  double lag_ms(int input, double sink_at, double stream_s) {
    double& anchor = anchor_[input];
    const double offset = sink_at - stream_s;
    anchor = std::isnan(anchor) || stream_s < last_stream_s_[input] ? offset : std::min(anchor, offset);
    last_stream_s_[input] = stream_s;
    return (offset - anchor) * 1e3;
  }

 private:
  std::vector<double> anchor_, last_stream_s_;
};

}  // namespace vidpipe
