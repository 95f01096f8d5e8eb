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
  k.real("latency_ms", &BenchConfig::latency_ms, 1, 60000,
         "`vidpipe bench --density` only: a number of live inputs is held when no input drops a frame and the "
         "99th percentile of latency (decoded to out of the sink) is at most this.");
  k.real("density_seconds", &BenchConfig::density_seconds, 0.5, 3600,
         "`vidpipe bench --density` only: seconds of video each input plays, in real time, at each step.");
  k.integer("density_max", &BenchConfig::density_max, 1, 1024,
            "`vidpipe bench --density` only: the most inputs tried (the steps double from 1 up to it).");
  k.integer("density_refine", &BenchConfig::density_refine, 0, 8,
            "`vidpipe bench --density` only: once a step is not held, this many more steps halve the gap "
            "between the most inputs held and the fewest not held (16 held, 32 not: 24, then 20 or 28). "
            "0: the doubling steps alone.");
  k.boolean("density_stagger", &BenchConfig::density_stagger,
            "`vidpipe bench --density` only: the copies start out of step, input k of N at k/N of the "
            "file (`input.stagger`), as independent cameras are; false: all of them at its start, so "
            "their keyframes come together (the worst case for their decoders). A file split over "
            "`reader.decoders` starts at its beginning either way.");
  k.text("json", &BenchConfig::json, "path",
         "`vidpipe bench` only: where the table goes as JSON (every mode's full report inside).");
  k.text("chart", &BenchConfig::chart, "path or empty",
         "`vidpipe bench` only: PNG bar chart of fps and copy-wait share per mode.");
}

}  // namespace vidpipe
