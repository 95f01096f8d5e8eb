// Loads TinyFaceDetector's weights from face-api's files: the weights manifest (JSON:
// tensor names, shapes, dtypes, uint8/uint16 quantisation) and the .bin it names.
#pragma once
#include <string>

#include "tiny_face/tiny_face_net.hpp"

namespace vidpipe {

inline constexpr const char* tiny_face_manifest = "tiny_face_detector_model-weights_manifest.json";

// `dir` holds the manifest and its .bin. Throws InputError naming the file and, for a
// wrong tensor, its name, expected and found shape.
TinyFaceWeights load_tiny_face_model(const std::string& dir);

}  // namespace vidpipe
