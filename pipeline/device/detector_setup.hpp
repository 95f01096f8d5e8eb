// Which detector the GPU stage runs (gpu.model): the built-in TinyFaceDetector's weights, or
// a user's ONNX model checked and its input's size and preprocessing put in the options.
#pragma once
#include "device/executor.hpp"

namespace vidpipe {

// Loads gpu.model into `options` when gpu.inference is on. Throws InputError naming the file
// (and the tensor) before anything else of the run is opened.
void attach_detector(ExecutorOptions& options, const GpuConfig& gpu);

// The preprocessing's last step: gpu.preprocess's, or what the ONNX model's gpu.onnx says.
Normalisation normalisation_for(const ExecutorOptions& options);

}  // namespace vidpipe
