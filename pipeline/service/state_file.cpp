#include "service/state_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/output_file.hpp"

namespace vidpipe {

std::vector<KeptInput> load_kept_inputs(const std::string& path) {
  std::error_code absent;
  if (!std::filesystem::exists(path, absent)) return {};
  std::ifstream file(path);
  if (!file) throw ConfigError(fmt::format("control.state_file: cannot read '{}': {}", path, std::strerror(errno)));
  std::vector<KeptInput> inputs;
  try {
    const nlohmann::json state = nlohmann::json::parse(file);
    for (const nlohmann::json& entry : state.at("inputs"))
      inputs.push_back({entry.at("id").get<std::string>(), entry.at("uri").get<std::string>()});
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(fmt::format("control.state_file: '{}' is not a list of inputs ({}); move it away to start afresh",
                                  path, e.what()));
  }
  return inputs;
}

void save_kept_inputs(const std::string& path, const std::vector<KeptInput>& inputs) {
  nlohmann::json list = nlohmann::json::array();
  for (const KeptInput& input : inputs) list.push_back({{"id", input.id}, {"uri", input.uri}});
  write_output_file(path, "control.state_file", nlohmann::json{{"inputs", list}}.dump(2) + "\n", 0600);
}

}  // namespace vidpipe
