// Small ONNX models with known answers (make_onnx_model.py, written by Debian's python3-onnx)
// and the models setup fetches (PP-OCRv4's text detector, BlazeFace), for the tests of a user's model (issue 35).
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "face_assets.hpp"
#include "test_media.hpp"

namespace vidpipe::test {

// Whether Debian's python3-onnx is here to write test models (setup installs it; the GPU
// machine has none).
inline bool python_onnx_here() {
  static const bool here = run_command("/usr/bin/python3 -c 'import onnx' 2>/dev/null") == 0;
  return here;
}

// A model from tests/support/make_onnx_model.py ("" if the script failed: MAKE_MODEL fails the
// test). Where there is no python3-onnx (the GPU machine), the one scripts/device/pack.sh made
// there with the same name and arguments, in $VIDPIPE_CLIPS ("" if none: the test skips).
inline std::string make_model(const std::string& name, const std::string& args = "") {
  const std::string path = scratch_dir() + "/" + name + ".onnx";
  if (python_onnx_here())
    return run_command("/usr/bin/python3 '" + source_dir() + "/tests/support/make_onnx_model.py' '" + path + "' " +
                       args) == 0
               ? path
               : "";
  const char* packed = std::getenv("VIDPIPE_CLIPS");
  const std::string made_there = packed ? std::string(packed) + "/" + name + ".onnx" : "";
  return !made_there.empty() && std::filesystem::exists(made_there) ? made_there : "";
}

// TinyFaceDetector exported by scripts/export-tiny-face-onnx.py from the fetched weights, for a
// square input of `size`; empty when Debian's python3-onnx is missing.
inline std::string exported_tiny_face(int size) {
  const std::string path = scratch_dir() + "/tiny_face_" + std::to_string(size) + ".onnx";
  const int rc = run_command("/usr/bin/python3 '" + source_dir() + "/scripts/export-tiny-face-onnx.py' --weights '" +
                             model_dir() + "' --size " + std::to_string(size) + " --out '" + path + "'");
  return rc == 0 ? path : "";
}

inline std::string ocr_model() { return source_dir() + "/assets/models/ppocr/ch_PP-OCRv4_det_infer.onnx"; }
inline std::string blazeface_model() {
  return source_dir() + "/assets/models/blazeface/face_detection_back_256x256_barracuda.onnx";
}

}  // namespace vidpipe::test

#define MAKE_MODEL(var, name, args)                                                            \
  const std::string var = vidpipe::test::make_model(name, args);                                \
  if (var.empty() && vidpipe::test::python_onnx_here()) FAIL() << "make_onnx_model.py " << args \
                                                               << " failed (its error is above)"; \
  if (var.empty()) GTEST_SKIP() << "no python3-onnx here to write test models (setup installs it)"

#define REQUIRE_OCR_MODEL()                                                                              \
  if (!std::filesystem::exists(vidpipe::test::ocr_model()))                                             \
  GTEST_SKIP() << "no PP-OCRv4 detector at " << vidpipe::test::ocr_model() << " (scripts/fetch-onnx-models.sh)"
