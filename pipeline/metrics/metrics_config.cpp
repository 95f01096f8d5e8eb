#include "metrics/metrics_config.hpp"

#include <limits>

#include "config/keys.hpp"

namespace vidpipe {

void declare_keys(Keys<MetricsConfig>& k) {
  k.integer("warmup_frames", &MetricsConfig::warmup_frames, 0, std::numeric_limits<int>::max(),
            "frames left out of fps and shares (start-up, encoder lookahead). With fewer frames than this "
            "the whole run is measured and the report says so.");
  k.integer("keep_frames", &MetricsConfig::keep_frames, 100, 100'000'000,
            "frames kept whole for the figures and `--trace` (~150 bytes each). Older ones are folded into "
            "running sums and 1%-wide histograms once the warm-up is over, so an endless live run holds "
            "bounded memory; past this many frames the percentiles are within 1% rather than exact, the "
            "trace holds the last `keep_frames` frames, and the report's `frames_kept` says so.");
  k.text("report", &MetricsConfig::report, "path or empty", "JSON report written at the end; empty: none.");
  k.boolean("live", &MetricsConfig::live, "print a live line once a second (fps, copy-wait share, GPU busy share).");
  k.text("trace", &MetricsConfig::trace, "path or empty",
         "Chrome/Perfetto trace (Trace Event Format) of the run: a track per host thread (reader, "
         "submit, sink) and per CUDA stream with H2D, preprocess, inference, overlay and D2H spans; open "
         "in ui.perfetto.dev or chrome://tracing. `--trace X` sets it.");
}

}  // namespace vidpipe
