// The gpu.onnx.* keys: what a user's ONNX model (gpu.model ending in .onnx) needs fed to it,
// where it runs and how its output is read. Declared in onnx_config.cpp.
#pragma once
#include <array>
#include <string>

namespace vidpipe {

template <class S>
class Keys;

enum class TensorLayout { nchw, nhwc };
enum class ChannelOrder { rgb, bgr };
enum class ImageFit { letterbox, stretch };
enum class OnnxProvider { automatic, cuda, cpu };
enum class OnnxIo { device, host };
enum class OutputDecoder { boxes, heatmap, tiny_face, blazeface, raw };

// The decoder's name as gpu.onnx.decoder spells it.
std::string to_string(OutputDecoder decoder);

struct OnnxConfig {
  std::string input;  // the image input's name; "": the model's only input
  TensorLayout layout = TensorLayout::nchw;
  int width = 0, height = 0;  // for a model of open size; 0: the model's own
  ChannelOrder channels = ChannelOrder::rgb;
  double scale = 1.0 / 255.0;           // pixel * scale ...
  std::array<double, 3> mean{0, 0, 0};  // ... - mean ...
  std::array<double, 3> std{1, 1, 1};   // ... / std, per channel in the model's order
  ImageFit fit = ImageFit::letterbox;
  OnnxProvider provider = OnnxProvider::automatic;
  OnnxIo io = OnnxIo::device;  // host: the plain loop (tensors through host memory), to compare with
  int threads = 0;  // the CPU provider's threads; 0: ONNX Runtime's choice
  OutputDecoder decoder = OutputDecoder::boxes;
  std::string output;  // the output the decoder reads; "": the model's first
  bool objectness = false;
  double binarize = 0.3;
  double unclip = 1.5;
};

// True when gpu.model names an ONNX file rather than the built-in detector's folder.
bool is_onnx_model(const std::string& path);

struct GpuConfig;
// The built-in detector, or a face model's decoder (tiny_face, blazeface): its boxes are faces.
bool finds_faces(const GpuConfig& gpu);
// What a detections line calls what the GPU stage found: "faces", "boxes" or (the raw
// decoder) "tensor".
std::string detections_key(const GpuConfig& gpu);

void declare_keys(Keys<OnnxConfig>& keys);

}  // namespace vidpipe
