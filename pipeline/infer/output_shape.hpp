// How a decoder reads a model's output tensor: the dims it needs, checked once against what
// the model declares (open dims pass) and read again from each run's actual dims.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/image_types.hpp"
#include "infer/onnx_config.hpp"

namespace vidpipe {

struct OutputShape {
  std::size_t per_frame = 0;  // floats of one frame
  int width = 0, height = 0;  // heatmap: the map; tiny_face: the grid (square)
  int fields = 0, anchors = 0;  // boxes
  bool anchors_last = true;     // boxes: [N, fields, anchors]
};

// "" when `dims` (open ones -1) can be what `decoder` reads, else what it expects.
std::string expected_output(const std::vector<std::int64_t>& dims, const OnnxConfig& config);

// A run's output dims (none open) as the decoder reads them.
OutputShape output_shape(const std::vector<std::int64_t>& dims, OutputDecoder decoder);

// The letterbox of the network's input as it lands on a map of another size (a heatmap of
// stride 4, say): boxes found on the map go back to source pixels through it.
Letterbox letterbox_on_map(const Letterbox& lb, int map_width, int map_height);

}  // namespace vidpipe
