// Writes an 8-bit BGR image as PNG through FFmpeg's PNG encoder (the GPU machine's
// runtime has no OpenCV imgcodecs).
#pragma once
#include <opencv2/core.hpp>
#include <string>

namespace vidpipe {

void write_png(const std::string& path, const cv::Mat& bgr);

}  // namespace vidpipe
