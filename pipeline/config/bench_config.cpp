#include "config/bench_config.hpp"

#include "config/keys.hpp"

namespace vidpipe {

void declare_keys(Keys<BenchConfig>& k) {
  k.int_list("streams", &BenchConfig::streams, 1, 32,
             "`vidpipe bench` only: the async modes with N streams to run besides sync pageable, sync pinned "
             "and async with 1 stream.");
  k.integer("batch", &BenchConfig::batch, 1, 64,
            "`vidpipe bench` only: the rung after the stream counts runs the most streams with this "
            "`copy.batch_size`; 1 leaves the rung out.");
  k.integer("preload", &BenchConfig::preload, 0, 100000,
            "`vidpipe bench` only: after the ladder on the decoded input, the same ladder on this many "
            "frames preloaded into memory (`input.preload`, looped to `input.max_frames`, 300 if unset): "
            "the GPU side alone. 0: only the first ladder. `--preload N` sets it.");
  k.text("json", &BenchConfig::json, "path",
         "`vidpipe bench` only: where the table goes as JSON (every mode's full report inside).");
  k.text("chart", &BenchConfig::chart, "path or empty",
         "`vidpipe bench` only: PNG bar chart of fps and copy-wait share per mode.");
}

}  // namespace vidpipe
