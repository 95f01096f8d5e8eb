// What the async pipeline should reach, from a sync run's own per-frame stage times: in
// sync mode one thread does decode, upload, compute, download and sink in turn; async runs
// them at once, so the slowest stage sets the rate. With one stream a frame's upload,
// kernels and download still queue behind each other; with two or more, copies of one
// frame overlap the kernels of another (the H200 has separate H2D and D2H engines).
#pragma once
#include <string>

#include "metrics/run_metrics.hpp"

namespace vidpipe {

struct Prediction {
  double fps = 0;
  std::string bound;  // decode | copy | streams | compute | sink
  int streams = 0;
};

Prediction predict_async(const Summary& sync_run, int streams);

}  // namespace vidpipe
