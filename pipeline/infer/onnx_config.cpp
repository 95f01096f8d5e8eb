#include "infer/onnx_config.hpp"

#include "config/keys.hpp"
#include "device/gpu_config.hpp"

namespace vidpipe {

bool is_onnx_model(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

bool finds_faces(const GpuConfig& gpu) {
  return !is_onnx_model(gpu.model) || gpu.onnx.decoder == OutputDecoder::tiny_face ||
         gpu.onnx.decoder == OutputDecoder::blazeface;
}

std::string detections_key(const GpuConfig& gpu) {
  if (finds_faces(gpu)) return "faces";
  return gpu.onnx.decoder == OutputDecoder::raw ? "tensor" : "boxes";
}

namespace {

const EnumNames<OutputDecoder> decoder_names{{"boxes", OutputDecoder::boxes},
                                             {"heatmap", OutputDecoder::heatmap},
                                             {"tiny_face", OutputDecoder::tiny_face},
                                             {"blazeface", OutputDecoder::blazeface},
                                             {"raw", OutputDecoder::raw}};

}  // namespace

std::string to_string(OutputDecoder decoder) { return name_of(decoder_names, decoder); }

namespace {

void declare_input_keys(Keys<OnnxConfig>& k) {
  k.text("input", &OnnxConfig::input, "tensor name", "the model's image input; empty: its only input.");
  k.choice("layout", &OnnxConfig::layout, {{"nchw", TensorLayout::nchw}, {"nhwc", TensorLayout::nhwc}},
           "where the image input keeps its channels: `nchw` (PyTorch, Paddle exports) or `nhwc` (TensorFlow's).");
  k.integer("width", &OnnxConfig::width, 0, 8192,
            "the input width for a model whose size is open (0: the model's own; a model of fixed size "
            "must be given its own). Text detectors want a multiple of 32.");
  k.integer("height", &OnnxConfig::height, 0, 8192, "the input height, as `width`.");
  k.choice("channels", &OnnxConfig::channels, {{"rgb", ChannelOrder::rgb}, {"bgr", ChannelOrder::bgr}},
           "the colour order the model was trained on (OpenCV-trained models: `bgr`).");
  k.real("scale", &OnnxConfig::scale, 1e-9, 1e9, "each 8-bit pixel value is multiplied by this first ...");
  k.triple("mean", &OnnxConfig::mean, "... then this is subtracted (per channel, in the model's order) ...");
  k.triple("std", &OnnxConfig::std, "... and the result divided by this (ImageNet: 0.229, 0.224, 0.225).");
  k.choice("fit", &OnnxConfig::fit, {{"letterbox", ImageFit::letterbox}, {"stretch", ImageFit::stretch}},
           "`letterbox` keeps the picture's aspect and pads (where: gpu.preprocess.align); `stretch` fills "
           "the input. Boxes are mapped back to source pixels either way.");
}

void declare_output_keys(Keys<OnnxConfig>& k) {
  k.choice("decoder", &OnnxConfig::decoder, decoder_names,
           "how the output becomes boxes: `boxes` (a YOLO head, [N, 4+C, A] or [N, A, 4+C(+1)], boxes as centre "
           "and size in input pixels, then NMS at gpu.iou_threshold), `heatmap` (a probability map [N, 1, H, W] "
           "such as DBNet's: boxes around its regions above `binarize` whose mean probability is above "
           "gpu.score_threshold), `tiny_face` (TinyFaceDetector's [N, 25, S, S] grid), `blazeface` "
           "(MediaPipe's BlazeFace, 128 or 256: score logits [N, A, 1] and boxes [N, A, 16] on its two anchor "
           "grids, as one pair of 896 anchors or two of 512 and 384, found by their shapes; overlaps above "
           "gpu.iou_threshold are blended by score, as MediaPipe does; the key points are not used), `raw` "
           "(no boxes: each frame's output summarised in the detections file as `tensor`: min, max and mean "
           "of its finite values, the index of the largest (a classifier's class) and how many are NaN or "
           "infinite).");
  k.text("output", &OnnxConfig::output, "tensor name",
         "the output the decoder reads; empty: the model's first. Not with `blazeface`, which finds its four by shape.");
  k.boolean("objectness", &OnnxConfig::objectness,
            "`boxes`: the head has an objectness score before its classes (YOLOv5's [x, y, w, h, obj, classes]).");
  k.real("binarize", &OnnxConfig::binarize, 0.0, 1.0, "`heatmap`: a pixel is text above this probability.");
  k.real("unclip", &OnnxConfig::unclip, 0.0, 10.0,
         "`heatmap`: each box grows by area x unclip / perimeter (DBNet predicts regions shrunk from the text).");
}

}  // namespace

void declare_keys(Keys<OnnxConfig>& k) {
  declare_input_keys(k);
  k.choice("provider", &OnnxConfig::provider,
           {{"auto", OnnxProvider::automatic}, {"cuda", OnnxProvider::cuda}, {"cpu", OnnxProvider::cpu}},
           "where ONNX Runtime runs the model: `cuda` (on the pipeline's CUDA streams, input and output in "
           "device memory), `cpu`, or `auto` (CUDA where the run is on a GPU and the provider loads, else the "
           "CPU provider, with a warning saying why).");
  k.choice("io", &OnnxConfig::io, {{"device", OnnxIo::device}, {"host", OnnxIo::host}},
           "`device`: the tensor, the outputs and the decoding stay on the GPU, on the pipeline's streams. "
           "`host`: the plain loop a user writes first, to compare with: the tensor copied to host memory, "
           "ONNX Runtime given host tensors (it copies them to the GPU and the outputs back on its own "
           "stream, and waits), the boxes decoded on the host.");
  k.integer("threads", &OnnxConfig::threads, 0, 256, "the CPU provider's threads; 0: ONNX Runtime's choice.");
  declare_output_keys(k);
}

}  // namespace vidpipe
