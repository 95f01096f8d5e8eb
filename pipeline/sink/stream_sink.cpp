// sink.kind stream: the encoder's MPEG-TS sent to a udp:// or tcp:// URL for a remote
// viewer (ffplay, VLC), tuned for one: no lookahead, a keyframe a second, datagrams of
// seven TS packets. The encoding itself is the file sink's (encode_sink.cpp).
#include "sink/sink.hpp"

namespace vidpipe {

std::unique_ptr<Sink> make_stream_sink(const SinkOptions& options) { return make_encoder_sink(options, true); }

}  // namespace vidpipe
