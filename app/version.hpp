// What `vidpipe --version` prints: this build and the libraries and GPU it runs with.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace vidpipe {

std::string version_text();
// Where and when a run ran, for its report and bench.json: start time (UTC), host, CPUs,
// GPUs, NVIDIA driver, CUDA runtime and driver API, FFmpeg and OpenCV versions.
nlohmann::json run_environment(std::chrono::system_clock::time_point started);
// This machine's CUDA devices: index, name, sm, memory_MiB, copy_engines (none without a GPU).
nlohmann::json gpus_json();
// "0.1.0 (<git describe>)": what the report records as vidpipe_version.
std::string version_number();

}  // namespace vidpipe
