#include "sink/sink.hpp"

namespace vidpipe {

std::unique_ptr<Sink> make_sink(const SinkOptions& options) {
  switch (options.config.kind) {
    case SinkKind::null: return make_null_sink();
    case SinkKind::display: return make_display_sink(options);
    case SinkKind::stream: return make_stream_sink(options);
    case SinkKind::encode: break;
  }
  return make_file_sink(options);
}

}  // namespace vidpipe
