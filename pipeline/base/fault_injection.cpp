#include "base/fault_injection.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>

#include "base/errors.hpp"

namespace vidpipe {
namespace {

// "<prefix><frame>" with a frame >= 0, or nothing.
std::optional<std::int64_t> frame_after(const std::string& value, const std::string& prefix) {
  if (value.rfind(prefix, 0) != 0) return std::nullopt;
  std::int64_t frame = -1;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data() + prefix.size(), end, frame);
  if (ec != std::errc() || ptr != end || frame < 0) return std::nullopt;
  return frame;
}

}  // namespace

InjectedFault parse_injected_fault(const std::string& value) {
  InjectedFault f;
  if (value.empty()) return f;
  if (const auto frame = frame_after(value, "gpu-trap:")) {
    f.gpu_trap_at_frame = *frame;
    return f;
  }
  if (const auto frame = frame_after(value, "stop-in-read:")) {
    f.stop_in_read_after_frame = *frame;
    return f;
  }
  if (value == "stop-in-loop-seek") {
    f.stop_in_loop_seek = true;
    return f;
  }
  if (const auto decoder = frame_after(value.substr(0, value.rfind(':')), "slow-decoder:")) {
    const auto ms = frame_after(value.substr(value.rfind(':')), ":");
    if (ms) {
      f.slow_decoder = static_cast<int>(*decoder);
      f.slow_decoder_ms = static_cast<int>(*ms);
      return f;
    }
  }
  throw ConfigError("VIDPIPE_INJECT_FAULT='" + value +
                    "': expected gpu-trap:<frame>, stop-in-loop-seek, stop-in-read:<frame> or slow-decoder:<decoder>:<ms>, "
                    "e.g. gpu-trap:40");
}

InjectedFault injected_fault_from_env() {
  const char* v = std::getenv("VIDPIPE_INJECT_FAULT");
  return parse_injected_fault(v ? v : "");
}

}  // namespace vidpipe
