#include "metrics/health.hpp"

#include <fmt/format.h>

namespace vidpipe {

namespace {

bool is_service(const nlohmann::json& report) { return report.value("kind", "") == "service"; }

// "input 2 (rtsp://cam/x)", by the service's id or the run's index.
std::string named(const nlohmann::json& input, std::size_t index) {
  const auto id_it = input.find("id");
  const std::string id = id_it == input.end() ? std::to_string(index)
                         : id_it->is_string()  ? id_it->get<std::string>()
                                               : id_it->dump();
  return fmt::format("input {} ({})", id, input.value("uri", "?"));
}

// A serving process is ready with no inputs (it waits for them); each of its pipelines must
// be open, through its first frame and still delivering, unless its file has ended.
Readiness service_readiness(const nlohmann::json& inputs) {
  if (inputs.empty()) return {true, "no inputs: waiting for POST /inputs"};
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const nlohmann::json& in = inputs[i];
    const std::string state = in.value("state", "");
    if (state == "ended" || state == "stopped") continue;
    if (state != "running") return {false, fmt::format("{} is {}", named(in, i), state)};
    if (in.value("reconnecting", false)) return {false, named(in, i) + " is reconnecting"};
    if (in.value("frames_decoded", 0) == 0) return {false, named(in, i) + " has not delivered a frame yet"};
    if (!(in.value("recent_fps", 0.0) > 0)) return {false, named(in, i) + ": no frame in the last seconds"};
  }
  return {true, ""};
}

}  // namespace

Readiness readiness_of(const nlohmann::json& report) {
  const nlohmann::json inputs = report.value("inputs", nlohmann::json::array());
  if (is_service(report)) return service_readiness(inputs);
  if (inputs.empty()) return {false, "no input is open yet"};
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].value("reconnecting", false)) return {false, named(inputs[i], i) + " is reconnecting"};
    if (inputs[i].value("frames_decoded", 0) == 0) return {false, named(inputs[i], i) + " has not delivered a frame yet"};
  }
  if (!(report.value("recent_fps", 0.0) > 0)) return {false, "no frame came out in the last seconds"};
  return {true, ""};
}

nlohmann::json inputs_of(const nlohmann::json& report) {
  nlohmann::json out = nlohmann::json::array();
  const nlohmann::json inputs = report.value("inputs", nlohmann::json::array());
  if (is_service(report)) return inputs;  // already one line per pipeline (service_report.hpp)
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    nlohmann::json entry{{"id", i}, {"state", inputs[i].value("reconnecting", false) ? "reconnecting" : "running"}};
    for (const char* key : {"uri", "decoder", "live", "frames_decoded", "frames_written", "frames_dropped", "fps",
                            "reconnects", "decode_errors"})
      entry[key] = inputs[i].value(key, nlohmann::json());
    out.push_back(entry);
  }
  return out;
}

}  // namespace vidpipe
