#include "run/executor_inputs.hpp"

#include <spdlog/spdlog.h>

#include "memory/frame_layout.hpp"
#include "sink/output_size.hpp"

namespace vidpipe {
namespace {

// reader.deinterlace against each input's field order; empty when nothing is deinterlaced.
std::vector<ExecutorOptions::KeepField> fields_to_keep(Deinterlace mode, const std::vector<VideoInfo>& inputs) {
  using Keep = ExecutorOptions::KeepField;
  std::vector<Keep> keep;
  bool any = false;
  for (const VideoInfo& info : inputs) {
    const bool interlaced = info.fields != VideoInfo::Fields::progressive;
    Keep k = Keep::none;
    if (mode == Deinterlace::on || (mode == Deinterlace::automatic && interlaced))
      k = info.fields == VideoInfo::Fields::bottom_first ? Keep::bottom : Keep::top;
    if (k != Keep::none)
      spdlog::info("'{}': deinterlaced in the GPU stage (the {} field kept)", info.uri,
                   k == Keep::top ? "top" : "bottom");
    any = any || k != Keep::none;
    keep.push_back(k);
  }
  return any ? keep : std::vector<Keep>{};
}

}  // namespace

YuvLayout written_layout(const YuvLayout& decoded, const VideoInfo& input, const SinkConfig& sink) {
  return output_layout_for(turned_layout(narrowed_layout(decoded), input.quarter_turns), sink);
}

double upright_sample_aspect(const VideoInfo& input) {
  return input.quarter_turns % 2 == 1 ? 1.0 / input.sample_aspect : input.sample_aspect;
}

void set_input_layouts(ExecutorOptions& o, const std::vector<YuvLayout>& decoded, const std::vector<VideoInfo>& inputs,
                       const Config& c) {
  o.layouts.clear();
  o.out_layouts.clear();
  o.decoded_layouts.clear();
  o.quarter_turns.clear();
  o.sample_aspects.clear();
  bool turned = false, wide = false;
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    o.layouts.push_back(turned_layout(narrowed_layout(decoded[i]), inputs[i].quarter_turns));
    o.out_layouts.push_back(written_layout(decoded[i], inputs[i], c.sink));
    o.quarter_turns.push_back(inputs[i].quarter_turns);
    o.sample_aspects.push_back(upright_sample_aspect(inputs[i]));
    turned = turned || inputs[i].quarter_turns != 0;
    wide = wide || !decoded[i].narrow();
  }
  // Only where an input is turned or wide does the upload need a buffer of its own.
  if (turned || wide) o.decoded_layouts = decoded;
  if (!turned) o.quarter_turns.clear();
  o.deinterlace = fields_to_keep(c.reader.deinterlace, inputs);
}

}  // namespace vidpipe
