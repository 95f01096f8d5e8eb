// The sink.* keys: where processed frames go. Declared in sink_config.cpp; the sinks
// take this struct whole.
#pragma once
#include "base/output_file.hpp"  // temporary_path_for: the name a file sink writes under until finished
#include <string>

namespace vidpipe {

template <class S>
class Keys;

enum class SinkKind { encode, stream, display, null };
enum class SinkAudio { copy, none };

struct SinkConfig {
  SinkKind kind = SinkKind::encode;
  std::string path = "out.mp4";
  std::string codec = "auto";  // auto: NVENC if usable, else libx264
  std::string preset = "veryfast";
  int crf = 23;
  int threads = 0;  // 0: the encoder's choice
  int gop = 0;      // frames from a keyframe to the next; 0: two seconds (one when streaming)
  // The output size, scaled on the GPU before the download; 0: the input's (one of the
  // two alone keeps the input's aspect).
  int width = 0, height = 0;
  SinkAudio audio = SinkAudio::copy;
  // What the encoder writes; the GPU stage's 8-bit 4:2:0 result is converted to it.
  std::string pixel_format = "yuv420p";
};

void declare_keys(Keys<SinkConfig>& keys);

// With several inputs each gets its own output: files get "-<input>" before the
// extension, stream URLs the next ports.
std::string sink_path_for(const std::string& path, int input, int inputs);
// Why the encode sink's path cannot hold its video (no container by that extension, or
// one that takes no H.264/HEVC, e.g. .webm, .gif); "" when it can.
std::string container_problem(const SinkConfig& sink);
// Why sink.pixel_format is not a pixel format FFmpeg knows; "" when it is one.
std::string pixel_format_problem(const SinkConfig& sink);

}  // namespace vidpipe
