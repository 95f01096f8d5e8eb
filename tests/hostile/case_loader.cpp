// tests/hostile/*.yaml -> HostileCase. A case file that does not parse stops the whole
// binary with the file and key named: a typo must not quietly drop a case.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "hostile_case.hpp"

namespace vidpipe::test {
namespace {

std::vector<std::string> strings(const YAML::Node& node) {
  if (!node) return {};
  if (node.IsScalar()) return {node.as<std::string>()};
  return node.as<std::vector<std::string>>();
}

// A YAML scalar as the JSON value a report would hold.
nlohmann::json scalar_json(const YAML::Node& node) {
  if (node.IsNull()) return nullptr;
  const std::string text = node.as<std::string>();
  if (node.Tag() == "!") return text;  // quoted in the file: a string whatever it looks like
  if (text == "true" || text == "false") return text == "true";
  try {
    std::size_t used = 0;
    const long long whole = std::stoll(text, &used);
    if (used == text.size()) return whole;
    const double real = std::stod(text, &used);
    if (used == text.size()) return real;
  } catch (const std::exception&) {
  }
  return text;
}

int signal_number(const std::string& name) {
  if (name == "INT") return SIGINT;
  if (name == "TERM") return SIGTERM;
  if (name == "HUP") return SIGHUP;
  throw std::runtime_error("unknown signal '" + name + "' (INT, TERM or HUP)");
}

const std::vector<std::string> known_keys = {"like", "name", "args", "setup", "peer", "stdin", "signal", "exit", "says",
                                             "prints", "writes", "changes", "frames", "report_file", "report",
                                             "hidden", "within_s", "no_gpu"};

HostileCase read_case(const YAML::Node& node, const std::string& suite, const std::string& file) {
  HostileCase c;
  c.suite = suite;
  c.file = file;
  c.name = node["name"].as<std::string>();
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end())
      throw std::runtime_error(file + ": case " + c.name + ": unknown key '" + key + "'");
  }
  c.args = node["args"].as<std::string>();
  c.setup = strings(node["setup"]);
  if (node["peer"]) c.peer = node["peer"].as<std::string>();
  if (node["stdin"]) c.stdin_from = node["stdin"].as<std::string>();
  if (const YAML::Node s = node["signal"]) {
    c.signal.number = signal_number(s["name"].as<std::string>());
    if (s["when"]) c.signal.when = s["when"].as<std::string>();
  }
  c.exit_code = node["exit"].as<int>();
  if (node["says"]) c.says = node["says"].as<std::string>();
  if (node["prints"]) c.prints = node["prints"].as<std::string>();
  c.writes = strings(node["writes"]);
  c.changes = strings(node["changes"]);
  if (const YAML::Node f = node["frames"])
    for (const auto& entry : f) c.frames[entry.first.as<std::string>()] = entry.second.as<int>();
  if (node["report_file"]) c.report_file = node["report_file"].as<std::string>();
  if (const YAML::Node r = node["report"])
    for (const auto& entry : r) c.report[entry.first.as<std::string>()] = scalar_json(entry.second);
  c.hidden = strings(node["hidden"]);
  if (node["within_s"]) c.within_s = node["within_s"].as<double>();
  if (node["no_gpu"]) c.no_gpu = node["no_gpu"].as<bool>();
  return c;
}

// `like: <earlier case>`: that case's keys, then this one's over them (the variations of
// one scene: the same run, another signal).
YAML::Node with_base(const YAML::Node& node, const std::map<std::string, YAML::Node>& earlier, const std::string& file) {
  if (!node["like"]) return node;
  const std::string base = node["like"].as<std::string>();
  const auto found = earlier.find(base);
  if (found == earlier.end()) throw std::runtime_error(file + ": like: no earlier case named '" + base + "'");
  YAML::Node merged = YAML::Clone(found->second);
  for (const auto& entry : node)
    if (entry.first.as<std::string>() != "like") merged[entry.first.as<std::string>()] = entry.second;
  return merged;
}

}  // namespace

std::vector<HostileCase> load_cases(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<HostileCase> cases;
  for (const std::string& file : files) {
    const YAML::Node doc = YAML::LoadFile(file);
    const std::string suite = doc["suite"].as<std::string>();
    std::map<std::string, YAML::Node> by_name;
    for (const YAML::Node& written : doc["cases"]) {
      try {
        const YAML::Node node = with_base(written, by_name, file);
        by_name[node["name"].as<std::string>()] = node;
        cases.push_back(read_case(node, suite, file));
      } catch (const YAML::Exception& e) {
        throw std::runtime_error(file + ":" + std::to_string(e.mark.line + 1) + ": " + e.what());
      }
    }
  }
  return cases;
}

}  // namespace vidpipe::test
