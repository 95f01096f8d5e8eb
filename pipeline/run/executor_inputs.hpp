// What the executor must know of each input's frames: the layout they are uploaded in, the
// turn and deinterlacing the GPU stage gives them, the upright layout it works on and the
// size the sink writes. One place for the run (assemble.cpp) and bench's GPU-stage limit.
#pragma once
#include <vector>

#include "config/config.hpp"
#include "device/executor.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

// `decoded[i]`: input i's reader layout; `inputs[i]`: what its reader found (turns, fields).
// The layout an input's results are written in: its frame narrowed to 8-bit 4:2:0 and turned upright, then at
// sink.width/height where they are set. What the sink and the download both size to.
YuvLayout written_layout(const YuvLayout& decoded, const VideoInfo& input, const SinkConfig& sink);

// The sample aspect of an input's frames as the GPU stage and the sink see them: turned a
// quarter, a pixel's width and height trade places.
double upright_sample_aspect(const VideoInfo& input);

void set_input_layouts(ExecutorOptions& options, const std::vector<YuvLayout>& decoded,
                       const std::vector<VideoInfo>& inputs, const Config& config);

}  // namespace vidpipe
