#include "config/bench_config.hpp"

#include "config/keys.hpp"

namespace vidpipe {

void declare_keys(Keys<BenchConfig>& k) {
  k.int_list("streams", &BenchConfig::streams, 1, 32,
             "`vidpipe bench` only: the async modes with N streams to run besides sync pageable, sync pinned "
             "and async with 1 stream.");
  k.text("json", &BenchConfig::json, "path",
         "`vidpipe bench` only: where the table goes as JSON (every mode's full report inside).");
  k.text("chart", &BenchConfig::chart, "path or empty",
         "`vidpipe bench` only: PNG bar chart of fps and copy-wait share per mode.");
}

}  // namespace vidpipe
