#include "metrics/prediction.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "metrics/stage_account.hpp"

namespace vidpipe {

Prediction predict_async(const Summary& s, int streams) {
  const double copies = streams >= 2 ? std::max(s.h2d.mean_ms, s.d2h.mean_ms) : s.h2d.mean_ms + s.d2h.mean_ms;
  const double device = streams >= 2 ? std::max(copies, s.compute.mean_ms) : copies + s.compute.mean_ms;
  // The device's rate is the streams' when none of its engines would be near full at it.
  const double busiest_engine = std::max({s.h2d.mean_ms, s.d2h.mean_ms, s.compute.mean_ms});
  const char* device_bound = busiest_engine < engine_near_full * device ? "streams"
                             : copies >= s.compute.mean_ms              ? "copy"
                                                                        : "compute";
  const std::array<std::pair<const char*, double>, 3> stages = {
      {{"decode", s.decode.mean_ms}, {device_bound, device}, {"sink", s.sink.mean_ms}}};
  const auto slowest = *std::max_element(stages.begin(), stages.end(), [](auto a, auto b) { return a.second < b.second; });
  Prediction p;
  p.streams = streams;
  p.bound = slowest.first;
  p.fps = slowest.second > 0 ? 1e3 / slowest.second : 0;
  return p;
}

}  // namespace vidpipe
