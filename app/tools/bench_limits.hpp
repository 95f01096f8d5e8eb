// The ceilings a bench ladder is held against, measured in the same process as the ladder:
// the decoder alone (libavcodec with the run's decoder and threads, into the same pool), the
// PCIe link (pinned async copies of the run's frames, each way alone and both at once), and
// the GPU stage alone (the run's kernels and detector on frames already on the device, for
// each stream count and batch of the ladder). The forecast of each async rung comes from them.
#pragma once
#include <atomic>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "config/config.hpp"
#include "metrics/run_metrics.hpp"

namespace vidpipe {

struct BenchLimits {
  double decoder_fps = 0;  // 0: not measured (a preloaded ladder needs none)
  int decoder_threads = 0;
  std::string decoder;  // e.g. "h264 (cpu)"
  // The `+ cpu+nvdec` rung's decoders (reader.decoders mixing the CPU and NVDEC) alone.
  double mixed_decoder_fps = 0;  // 0: not measured
  int mixed_decoder_threads = 0;
  std::string mixed_decoder;  // e.g. "h264 (cpu+nvdec, 3 decoders)"
  // Frames a second the link carries: H2D alone, D2H alone, and each way with both busy.
  double link_h2d_fps = 0, link_d2h_fps = 0, link_both_fps = 0;
  double link_both_gbps = 0;  // the two directions together
  std::size_t h2d_frame_bytes = 0, d2h_frame_bytes = 0;
  std::map<std::pair<int, int>, double> stage_fps;  // (streams, batch) -> GPU stage alone
  bool on_gpu = false;

  // What an async rung with `streams` and `batch` should reach, and the limit that binds.
  // Each stream runs a batch's upload, kernels and download one after another; streams
  // overlap and contend for the copy engines and the SMs (a closed queueing network, solved
  // by mean-value analysis), and the decoder, the link both ways and the sink cap the rest.
  struct Forecast {
    double fps = 0;
    std::string bound;
  };
  Forecast forecast(int streams, int batch, double sink_ms) const;
  // The same limits with the mixed decoders in the decoder's place.
  BenchLimits with_mixed_decoders() const;
  // The lowest of the decoder alone, the link both ways and the stage alone at this shape
  // (those measured); 0 if none was.
  double lowest(int streams, int batch) const;
  nlohmann::json json() const;
  std::string table() const;
};

// The decoders of `mixed` (a reader.decoders list of CPU and NVDEC) alone, into `l`.
void measure_mixed_decoders(const Config& mixed, BenchLimits& l, const std::atomic<bool>* stop);

// `decoded`: measure the decoder too. `rungs`: the (streams, batch) pairs to time the stage at.
// `stop` (Ctrl-C) cuts the decoder's measurement short: it may run as long as a rung does.
BenchLimits measure_limits(const Config& config, bool decoded, const std::vector<std::pair<int, int>>& rungs,
                           const std::atomic<bool>* stop);

}  // namespace vidpipe
