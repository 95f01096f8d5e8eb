// The size the sink writes: the decoded frame's, or sink.width/height's.
#pragma once
#include "common/image_types.hpp"
#include "sink/sink_config.hpp"

namespace vidpipe {

// The decoded layout itself when neither key is set or the size comes out the same;
// otherwise a packed layout of the same plane kind at the asked size (one key alone
// keeps the decoded aspect), both sides even as 4:2:0 encoders need.
YuvLayout output_layout_for(const YuvLayout& decoded, const SinkConfig& sink);

}  // namespace vidpipe
