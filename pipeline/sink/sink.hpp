// Where processed frames go. A sink receives frames in order on the sink thread.
#pragma once
extern "C" {
#include <libavutil/buffer.h>
}

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "sink/sink_config.hpp"
#include "source/frame_colour.hpp"
#include "common/image_types.hpp"

namespace vidpipe {

struct OutputFrame {
  AVBufferRef* buffer = nullptr;  // borrowed; a sink that keeps it takes its own reference
  std::int64_t index = 0;
  double stream_s = 0;  // the input frame's presentation time, which the output keeps
};

class Sink {
 public:
  virtual ~Sink() = default;
  virtual void write(const OutputFrame& frame) = 0;
  // Flushes and closes; the output is complete and playable afterwards.
  virtual void finish() = 0;
  virtual std::string describe() const = 0;
  // Frames the sink really wrote (encoded, sent or shown), for the report to hold against
  // the frames the pipeline delivered to it.
  virtual std::int64_t frames_written() const = 0;
};

// Keys pressed in the display window, read by the pipeline.
struct LiveControls {
  std::atomic<bool> quit{false};        // q: stop cleanly
  std::atomic<int> mode_toggles{0};     // s: switch sync/async copies
  std::atomic<bool> sync{false};        // what the copies are now, for the window's label
};

struct SinkOptions {
  SinkConfig config;  // the sink.* section (path made per input when there are several)
  double fps = 30;
  YuvLayout layout;
  FrameColour colour;
  double sample_aspect = 1.0;  // SAR of the written frames: players show them at display aspect
  std::string title = "vidpipe";  // display: the window's name
  LiveControls* controls = nullptr;
  // The input file whose audio sink.audio: copy carries over; empty: none (live, preloaded).
  std::string audio_from;
};

// By config.kind: encode_sink.cpp, stream_sink.cpp, display_sink.cpp, null_sink.cpp.
std::unique_ptr<Sink> make_sink(const SinkOptions& options);
std::unique_ptr<Sink> make_file_sink(const SinkOptions& options);
std::unique_ptr<Sink> make_stream_sink(const SinkOptions& options);
std::unique_ptr<Sink> make_null_sink();
// Built only with OpenCV highgui (VIDPIPE_DISPLAY); otherwise it throws ConfigError.
std::unique_ptr<Sink> make_display_sink(const SinkOptions& options);

// The encoder behind the file and stream sinks (encode_sink.cpp); `streaming` tunes it
// for a viewer and writes to the URL directly.
std::unique_ptr<Sink> make_encoder_sink(const SinkOptions& options, bool streaming);

}  // namespace vidpipe
