#include "version.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>
#include <opencv2/core/version.hpp>

extern "C" {
#include <libavutil/avutil.h>
}

#include <ctime>
#include <fstream>
#include <thread>

namespace vidpipe {
namespace {

// CUDA reports versions as 1000 * major + 10 * minor.
std::string cuda_version(int v) { return v > 0 ? fmt::format("{}.{}", v / 1000, (v % 1000) / 10) : "none"; }

// "580.159.04" from the kernel module's banner; empty without an NVIDIA driver.
std::string nvidia_driver_version() {
  std::ifstream banner("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(banner, line)) return "";
  const std::size_t kernel_module = line.find("Kernel Module");
  if (kernel_module == std::string::npos) return "";
  std::size_t at = line.find_first_of("0123456789", kernel_module);
  const std::size_t end = at == std::string::npos ? at : line.find(' ', at);
  return at == std::string::npos ? "" : line.substr(at, end - at);
}

}  // namespace

nlohmann::json gpus_json() {
  nlohmann::json gpus = nlohmann::json::array();
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return gpus;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) == cudaSuccess)
      gpus.push_back({{"index", i}, {"name", p.name}, {"sm", fmt::format("sm_{}{}", p.major, p.minor)},
                      {"memory_MiB", p.totalGlobalMem >> 20}, {"copy_engines", p.asyncEngineCount}});
  }
  return gpus;
}

namespace {

// ISO 8601 in UTC whatever the machine's zone (fmt 9 formats a time_point in local time).
std::string utc_text(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

nlohmann::json run_environment(std::chrono::system_clock::time_point started) {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  const std::string driver_version = nvidia_driver_version();
  return {{"started_at", utc_text(started)},
          {"host", host},
          {"cpus", std::thread::hardware_concurrency()},
          {"gpus", gpus_json()},
          {"nvidia_driver", driver_version.empty() ? nlohmann::json(nullptr) : nlohmann::json(driver_version)},
          {"cuda_runtime", cuda_version(runtime)},
          {"cuda_driver", cuda_version(driver)},
          {"ffmpeg", av_version_info()},
          {"opencv", CV_VERSION}};
}

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
