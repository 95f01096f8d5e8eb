// Where the face tests find their inputs: the fetched model and opencv-doc's images.
#pragma once
#include <cstdlib>
#include <string>

#include "test_media.hpp"

namespace vidpipe::test {

inline std::string model_dir() { return source_dir() + "/assets/models/tiny_face_detector"; }

// opencv-doc's examples/data ($VIDPIPE_TEST_DATA on the GPU machine, which has no opencv-doc).
inline std::string opencv_data(const std::string& name) {
  const char* env = std::getenv("VIDPIPE_TEST_DATA");
  return std::string(env ? env : "/usr/share/doc/opencv-doc/examples/data") + "/" + name;
}

}  // namespace vidpipe::test
