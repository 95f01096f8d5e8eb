#include "metrics/startup.hpp"

#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace vidpipe {
namespace {

nlohmann::json seconds_or_null(double s) { return s < 0 ? nlohmann::json(nullptr) : nlohmann::json(s); }

}  // namespace

nlohmann::json startup_json(const StartupTimes& startup, const FirstFrameTimes& first) {
  nlohmann::json first_frame = nullptr;
  if (first.seen)
    first_frame = {{"decode_begin_s", first.decode_begin_s}, {"decoded_s", first.decoded_s},
                   {"gpu_begin_s", first.gpu_begin_s},       {"gpu_end_s", first.gpu_end_s},
                   {"delivered_s", first.delivered_s}};
  return {{"process_s", seconds_or_null(startup.process_s)},
          {"cuda_s", startup.cuda_s},
          {"inputs_s", startup.inputs_s},
          {"executor_s", startup.executor_s},
          {"sinks_s", startup.sinks_s},
          {"first_frame", first_frame}};
}

nlohmann::json shutdown_json(const ShutdownTimes& shutdown) {
  return {{"finish_s", seconds_or_null(shutdown.finish_s)}, {"release_s", seconds_or_null(shutdown.release_s)}};
}

std::string startup_line(const StartupTimes& startup, const FirstFrameTimes& first, const ShutdownTimes& shutdown) {
  std::string line = "  start-up:";
  if (startup.process_s >= 0) line += fmt::format(" process {:.2f} s before the pipeline,", startup.process_s);
  line += fmt::format(" CUDA {:.2f} s, inputs {:.2f}, executor {:.2f}, outputs {:.2f}", startup.cuda_s,
                      startup.inputs_s, startup.executor_s, startup.sinks_s);
  if (first.seen)
    line += fmt::format("; first frame decoded {:.2f}-{:.2f} s, GPU stage {:.2f}-{:.2f}, out at {:.2f}",
                        first.decode_begin_s, first.decoded_s, first.gpu_begin_s, first.gpu_end_s, first.delivered_s);
  line += "\n";
  if (shutdown.finish_s >= 0 || shutdown.release_s >= 0)
    line += fmt::format("  end: outputs finished in {:.2f} s, parts freed in {:.2f} s\n", std::max(0.0, shutdown.finish_s),
                        std::max(0.0, shutdown.release_s));
  return line;
}

double process_age_seconds() {
  // /proc/self/stat's 22nd field is the start time in clock ticks since boot; the name
  // (field 2) may hold spaces and parentheses, so count from its last ')'.
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto name_end = stat.rfind(')');
  timespec since_boot{};
  if (name_end == std::string::npos || clock_gettime(CLOCK_BOOTTIME, &since_boot) != 0) return -1;
  std::istringstream fields(stat.substr(name_end + 1));
  std::string field;
  for (int i = 3; i < 22 && fields >> field; ++i) {
  }
  unsigned long long start_ticks = 0;
  if (!(fields >> start_ticks)) return -1;
  const double now = static_cast<double>(since_boot.tv_sec) + static_cast<double>(since_boot.tv_nsec) / 1e9;
  return std::max(0.0, now - static_cast<double>(start_ticks) / static_cast<double>(sysconf(_SC_CLK_TCK)));
}

}  // namespace vidpipe
