#include "infer/onnx_setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "decode/decode_params.hpp"
#include "infer/output_shape.hpp"

namespace vidpipe {
namespace {

// The model's float outputs, each with its place among them (what a run returns).
std::vector<std::pair<std::size_t, TensorInfo>> float_outputs(const OnnxModel& model) {
  std::vector<std::pair<std::size_t, TensorInfo>> floats;
  for (const TensorInfo& t : model.outputs())
    if (t.type == "float") floats.emplace_back(floats.size(), t);
  return floats;
}

std::string listed(const std::vector<std::pair<std::size_t, TensorInfo>>& outputs) {
  std::string names;
  for (const auto& [index, t] : outputs) names += (names.empty() ? "" : ", ") + t.name + " " + shape_text(t.dims);
  return names.empty() ? "none" : names;
}

// The output one decoder reads, by name (or the first), its shape checked.
void pick_output(OnnxSetup& s, const OnnxModel& model) {
  const auto floats = float_outputs(model);
  const std::string& wanted = s.config.output;
  const auto found = std::find_if(floats.begin(), floats.end(),
                                  [&](const auto& o) { return wanted.empty() || o.second.name == wanted; });
  if (found == floats.end())
    throw InputError(wanted.empty() ? fmt::format("'{}': the model has no float output to decode", s.path)
                                    : fmt::format("'{}': gpu.onnx.output: no float output '{}' (the model has {})",
                                                  s.path, wanted, listed(floats)));
  const TensorInfo& t = found->second;
  if (const std::string expected = expected_output(t.dims, s.config); !expected.empty())
    throw InputError(fmt::format("'{}': output '{}' is {}; gpu.onnx.decoder {} reads {}", s.path, t.name,
                                 shape_text(t.dims), to_string(s.config.decoder), expected));
  s.outputs = {t};
  s.output_indices = {found->first};
}

// BlazeFace's heads, found by their shapes: score logits [N, A, 1] and boxes [N, A, 16], one
// pair over both anchor grids or a pair for each (the first grid's, with more anchors, first).
void pick_blazeface_outputs(OnnxSetup& s, const OnnxModel& model) {
  const auto floats = float_outputs(model);
  std::vector<std::pair<std::size_t, TensorInfo>> scores, boxes;
  for (const auto& o : floats) {
    const auto& d = o.second.dims;
    if (d.size() != 3 || d[1] <= 0) continue;
    if (d[2] == 1) scores.push_back(o);
    if (d[2] == BlazeFaceDecode::values) boxes.push_back(o);
  }
  auto more_anchors = [](const auto& a, const auto& b) { return a.second.dims[1] > b.second.dims[1]; };
  std::sort(scores.begin(), scores.end(), more_anchors);
  std::sort(boxes.begin(), boxes.end(), more_anchors);
  std::int64_t anchors = 0;
  bool paired = scores.size() == boxes.size() && (scores.size() == 1 || scores.size() == 2);
  for (std::size_t i = 0; paired && i < scores.size(); ++i) {
    paired = scores[i].second.dims[1] == boxes[i].second.dims[1];
    anchors += scores[i].second.dims[1];
  }
  // 2c^2 + 6(c/2)^2 = 3.5c^2 anchors for c cells a side on the first grid.
  const int cells = static_cast<int>(std::lround(std::sqrt(anchors / 3.5)));
  const bool grids = paired && cells % 2 == 0 && blazeface_anchors(cells) == anchors &&
                     (scores.size() == 1 || scores[0].second.dims[1] == 2 * cells * cells);
  if (!grids)
    throw InputError(fmt::format("'{}': gpu.onnx.decoder blazeface reads score logits [N, A, 1] and boxes "
                                 "[N, A, 16] on BlazeFace's two anchor grids (A = 896 in one pair, or 512 and "
                                 "384 in two); the model's float outputs are {}",
                                 s.path, listed(floats)));
  s.blazeface_cells = cells;
  for (const auto* heads : {&scores, &boxes})
    for (const auto& [index, t] : *heads) {
      s.outputs.push_back(t);
      s.output_indices.push_back(index);
    }
}

}  // namespace

std::shared_ptr<const OnnxSetup> open_onnx_setup(const GpuConfig& gpu) {
  auto s = std::make_shared<OnnxSetup>();
  s->config = gpu.onnx;
  s->path = gpu.model;
  s->device = gpu.device;
  s->score_threshold = static_cast<float>(gpu.score_threshold);
  s->iou_threshold = static_cast<float>(gpu.iou_threshold);
  OnnxModelOptions o;
  o.path = gpu.model;
  o.input_name = gpu.onnx.input;
  o.layout = gpu.onnx.layout;
  o.width = gpu.onnx.width;
  o.height = gpu.onnx.height;
  const OnnxModel model(o);
  s->input = model.input();
  // A batch can be cut into runs of one frame, not into runs of a fixed size: a partial
  // batch (copy.batch_timeout_ms) would leave a run short.
  if (s->input.batch > 1)
    throw InputError(fmt::format("'{}': input '{}' is for batches of exactly {}: vidpipe runs batches of up to "
                                 "copy.batch_size frames; export the model with an open batch or a batch of 1",
                                 gpu.model, s->input.name, s->input.batch));
  if (gpu.onnx.decoder == OutputDecoder::blazeface)
    pick_blazeface_outputs(*s, model);
  else
    pick_output(*s, model);
  return s;
}

Normalisation onnx_normalisation(const OnnxConfig& c) {
  Normalisation n;
  n.bgr = c.channels == ChannelOrder::bgr;
  n.nhwc = c.layout == TensorLayout::nhwc;
  // (pixel * scale - mean) / std == (pixel - mean / scale) * (scale / std)
  for (int i = 0; i < 3; ++i) {
    n.mean[i] = static_cast<float>(c.mean[i] / c.scale);
    n.scale[i] = static_cast<float>(c.scale / c.std[i]);
  }
  return n;
}

}  // namespace vidpipe
