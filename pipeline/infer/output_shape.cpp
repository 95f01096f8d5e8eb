#include "infer/output_shape.hpp"

#include <algorithm>

namespace vidpipe {

std::string expected_output(const std::vector<std::int64_t>& dims, const OnnxConfig& c) {
  auto is = [&](std::size_t axis, std::int64_t value) { return dims[axis] < 0 || dims[axis] == value; };
  switch (c.decoder) {
    case OutputDecoder::heatmap:
      if (dims.size() == 3 || (dims.size() == 4 && is(1, 1))) return "";
      return "[N, 1, H, W] or [N, H, W] (a probability map)";
    case OutputDecoder::tiny_face:
      if (dims.size() == 4 && is(1, 25) && (dims[2] < 0 || dims[3] < 0 || dims[2] == dims[3])) return "";
      return "[N, 25, S, S] (TinyFaceDetector's grid)";
    case OutputDecoder::raw:
      if (!dims.empty()) return "";
      return "[N, ...] (any tensor with the batch first)";
    case OutputDecoder::blazeface:  // checked by its own picker (onnx_setup.cpp)
      return "";
    case OutputDecoder::boxes: {
      const std::int64_t least = c.objectness ? 6 : 5;  // box, (objectness,) one class at least
      if (dims.size() == 3 && (dims[1] < 0 || dims[2] < 0 || std::min(dims[1], dims[2]) >= least)) return "";
      return c.objectness ? "[N, 5+C, A] or [N, A, 5+C] (a YOLO head with objectness)"
                          : "[N, 4+C, A] or [N, A, 4+C] (a YOLO head)";
    }
  }
  return "";
}

OutputShape output_shape(const std::vector<std::int64_t>& dims, OutputDecoder decoder) {
  OutputShape s;
  s.per_frame = 1;
  for (std::size_t i = 1; i < dims.size(); ++i) s.per_frame *= static_cast<std::size_t>(dims[i]);
  if (dims.size() < 2) return s;  // the raw decoder's [N]: one value a frame
  const int last = static_cast<int>(dims.back()), second_last = static_cast<int>(dims[dims.size() - 2]);
  if (decoder == OutputDecoder::boxes) {
    // A head has far more anchors than fields: which axis is which follows.
    s.anchors_last = second_last < last;
    s.fields = std::min(second_last, last);
    s.anchors = std::max(second_last, last);
  } else {
    s.width = last;
    s.height = second_last;
  }
  return s;
}

Letterbox letterbox_on_map(const Letterbox& lb, int map_width, int map_height) {
  if (map_width == lb.dst_width && map_height == lb.dst_height) return lb;
  const float sx = static_cast<float>(map_width) / lb.dst_width, sy = static_cast<float>(map_height) / lb.dst_height;
  Letterbox m = lb;
  m.dst_width = map_width;
  m.dst_height = map_height;
  m.scale_x *= sx;
  m.scale_y *= sy;
  m.pad_x = static_cast<int>(lb.pad_x * sx);
  m.pad_y = static_cast<int>(lb.pad_y * sy);
  m.content_width = std::max(1, static_cast<int>(lb.content_width * sx));
  m.content_height = std::max(1, static_cast<int>(lb.content_height * sy));
  return m;
}

}  // namespace vidpipe
