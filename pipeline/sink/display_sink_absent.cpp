// Builds without OpenCV highgui (the GPU machine's runtime has none) have no window.
#include "base/errors.hpp"
#include "sink/sink.hpp"

namespace vidpipe {

std::unique_ptr<Sink> make_display_sink(const SinkOptions&) {
  throw ConfigError("sink.kind: display is not built into this vidpipe (no OpenCV highgui at build time); "
                    "use sink.kind: stream to watch from another machine");
}

}  // namespace vidpipe
