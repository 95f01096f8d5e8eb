#include "device/fault_injection.hpp"

#include <charconv>
#include <cstdlib>

#include "base/errors.hpp"

namespace vidpipe {

InjectedFault parse_injected_fault(const std::string& value) {
  InjectedFault f;
  if (value.empty()) return f;
  const std::string prefix = "gpu-trap:";
  std::int64_t frame = -1;
  const char* end = value.data() + value.size();
  if (value.rfind(prefix, 0) == 0) {
    const auto [ptr, ec] = std::from_chars(value.data() + prefix.size(), end, frame);
    if (ec == std::errc() && ptr == end && frame >= 0) {
      f.gpu_trap_at_frame = frame;
      return f;
    }
  }
  throw ConfigError("VIDPIPE_INJECT_FAULT='" + value + "': expected gpu-trap:<frame>, e.g. gpu-trap:40");
}

InjectedFault injected_fault_from_env() {
  const char* v = std::getenv("VIDPIPE_INJECT_FAULT");
  return parse_injected_fault(v ? v : "");
}

}  // namespace vidpipe
