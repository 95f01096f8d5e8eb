#include "metrics/health.hpp"

#include <fmt/format.h>

namespace vidpipe {

Readiness readiness_of(const nlohmann::json& report) {
  const nlohmann::json inputs = report.value("inputs", nlohmann::json::array());
  if (inputs.empty()) return {false, "no input is open yet"};
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].value("frames_decoded", 0) == 0)
      return {false, fmt::format("input {} ({}) has not delivered a frame yet", i, inputs[i].value("uri", "?"))};
  if (!(report.value("recent_fps", 0.0) > 0)) return {false, "no frame came out in the last seconds"};
  return {true, ""};
}

nlohmann::json inputs_of(const nlohmann::json& report) {
  nlohmann::json out = nlohmann::json::array();
  const nlohmann::json inputs = report.value("inputs", nlohmann::json::array());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    nlohmann::json entry{{"id", i}};
    for (const char* key : {"uri", "decoder", "live", "frames_decoded", "frames_written", "frames_dropped", "fps",
                            "reconnects", "decode_errors"})
      entry[key] = inputs[i].value(key, nlohmann::json());
    out.push_back(entry);
  }
  return out;
}

}  // namespace vidpipe
