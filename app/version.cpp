#include "version.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <opencv2/core/version.hpp>

extern "C" {
#include <libavutil/avutil.h>
}

namespace vidpipe {
namespace {

// CUDA reports versions as 1000 * major + 10 * minor.
std::string cuda_version(int v) { return v > 0 ? fmt::format("{}.{}", v / 1000, (v % 1000) / 10) : "none"; }

}  // namespace

std::string version_number() { return fmt::format("{} ({})", VIDPIPE_VERSION, VIDPIPE_GIT_DESCRIBE); }

std::string version_text() {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  // No driver (a machine without a GPU) is an answer here, not an error.
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  return fmt::format(
      "vidpipe {}\n"
      "CUDA runtime {}, driver {}; GPU code built for {}\n"
      "FFmpeg {} (libavutil {}.{}.{}), OpenCV {}",
      version_number(), cuda_version(runtime), cuda_version(driver), VIDPIPE_CUDA_ARCHITECTURES,
      av_version_info(), LIBAVUTIL_VERSION_MAJOR, LIBAVUTIL_VERSION_MINOR, LIBAVUTIL_VERSION_MICRO, CV_VERSION);
}

}  // namespace vidpipe
