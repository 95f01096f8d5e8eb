#include "metrics/metrics_config.hpp"

#include <charconv>
#include <limits>

#include "config/keys.hpp"

namespace vidpipe {

ListenAddress parse_listen(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw "must be host:port (e.g. 127.0.0.1:9100), got '" + text + "'";
  ListenAddress address;
  address.host = text.substr(0, colon);
  // [::1]:9100: the brackets only keep the address's colons apart from the port's.
  if (address.host.size() > 2 && address.host.front() == '[' && address.host.back() == ']')
    address.host = address.host.substr(1, address.host.size() - 2);
  const char* first = text.data() + colon + 1;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(first, last, address.port);
  if (error != std::errc() || end != last || address.port < 0 || address.port > 65535)
    throw "the port must be a number from 0 to 65535, got '" + std::string(first, last) + "'";
  return address;
}

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
  k.text("listen", &MetricsConfig::listen, "host:port or empty",
         "serve the run's figures over HTTP while it goes on: `/metrics` in Prometheus's text format "
         "(fps, copy-wait share, per-stage times, drops, reconnects, latency, per input), `/report` "
         "(the JSON report so far), `/inputs` (each input's figures), `/healthz` (the process answers) "
         "and `/readyz` (200 once every input has delivered a frame and frames still come; 503 with "
         "the reason otherwise). `127.0.0.1:9100` for this machine only, `0.0.0.0:9100` for a "
         "scraper elsewhere; port 0 picks a free one, named in the log.",
         [](const std::string& v) {
           if (!v.empty()) parse_listen(v);
         });
  k.text("trace", &MetricsConfig::trace, "path or empty",
         "Chrome/Perfetto trace (Trace Event Format) of the run: a track per host thread (reader, "
         "submit, sink) and per CUDA stream with H2D, preprocess, inference, overlay and D2H spans; open "
         "in ui.perfetto.dev or chrome://tracing. `--trace X` sets it.");
  k.text("detections", &MetricsConfig::detections, "path or empty",
         "JSON Lines file of every delivered frame's faces, one line a frame in each input's order: "
         "`{\"input\": 0, \"frame\": 12, \"pts_s\": 0.4, \"faces\": [[x0, y0, x1, y1, score], ...]}` in the "
         "input frame's pixels, best first (empty lists with `gpu.inference: false`). Written as the run "
         "goes and complete up to the last delivered frame if it fails. `--detections X` sets it.");
}

}  // namespace vidpipe
