// config/README.md, generated from the key declarations so that the docs cannot drift
// from what the loader accepts (a unit test compares the file with this text).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/keys.hpp"

namespace vidpipe {
namespace {

std::string default_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>().empty() ? "empty" : "`" + v.get<std::string>() + "`";
  if (v.is_array() && v.empty()) return "empty";
  if (v.is_number_float()) return fmt::format("`{}`", v.get<double>());
  if (v.is_array()) {
    std::string items;
    for (const auto& x : v) items += (items.empty() ? "" : ", ") + (x.is_number_float() ? fmt::format("{}", x.get<double>()) : x.dump());
    return "`[" + items + "]`";
  }
  return "`" + v.dump() + "`";
}

constexpr const char* intro =
    "# Configuration keys\n"
    "\n"
    "<!-- Generated from the key declarations (pipeline/*/*_config.cpp) by `vidpipe config-doc\n"
    "     > config/README.md`; a unit test fails when this file is stale. -->\n"
    "\n"
    "A config is a YAML file of sections; every key has a default, so a file names only what it\n"
    "changes. `--set key=value` overrides any key from the command line (`--set copy.streams=4`),\n"
    "`--input X` is short for `--set input.uri=X` and `--report X` for `--set metrics.report=X`.\n"
    "Unknown keys, wrong types and out-of-range values stop the run with one line naming the file,\n"
    "line, column and key (exit code 2). Relative paths are relative to the working directory.\n"
    "\n"
    "| key | default | values | meaning |\n"
    "|---|---|---|---|\n";

// A default as YAML: JSON's scalars and flow lists are YAML too (strings quoted, so that
// "auto" or "" stay strings).
std::string yaml_value(const nlohmann::json& v) {
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  if (!v.is_array()) return v.dump();
  std::string items;
  for (const auto& x : v) items += (items.empty() ? "" : ", ") + yaml_value(x);
  return "[" + items + "]";
}

// `text` as comment lines of at most `width` columns, each starting with `indent` + "# ".
std::string comment_lines(const std::string& text, const std::string& indent, std::size_t width = 96) {
  std::string out, line;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t space = text.find(' ', at);
    const std::string word = text.substr(at, space == std::string::npos ? std::string::npos : space - at);
    at = space == std::string::npos ? text.size() : space + 1;
    if (!line.empty() && indent.size() + 2 + line.size() + 1 + word.size() > width) {
      out += indent + "# " + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + "# " + line + "\n";
  return out;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  for (std::size_t at = 0, dot; at <= path.size(); at = dot + 1) {
    dot = path.find('.', at);
    if (dot == std::string::npos) dot = path.size();
    parts.push_back(path.substr(at, dot - at));
  }
  return parts;
}

}  // namespace

std::string config_template_yaml() {
  const Config defaults;
  std::string out =
      "# vidpipe config: every key at its default (`vidpipe config-doc --yaml`). Keep what you change\n"
      "# and delete the rest; `vidpipe run -c this.yaml` loads it as it is.\n";
  std::vector<std::string> open_sections;
  for (const KeySpec& k : declared_keys()) {
    const std::vector<std::string> parts = split_path(k.path);
    std::size_t shared = 0;
    while (shared < open_sections.size() && shared + 1 < parts.size() && open_sections[shared] == parts[shared]) ++shared;
    open_sections.resize(shared);
    for (std::size_t level = shared; level + 1 < parts.size(); ++level) {
      if (level == 0) out += "\n";
      out += std::string(2 * level, ' ') + parts[level] + ":\n";
      open_sections.push_back(parts[level]);
    }
    if (parts.size() == 1) out += "\n";
    const std::string indent(2 * (parts.size() - 1), ' ');
    out += comment_lines(k.doc + " (" + k.values + ")", indent);
    out += indent + parts.back() + ": " + yaml_value(k.get(defaults)) + "\n";
  }
  return out;
}

std::string config_reference_markdown() {
  const Config defaults;
  std::string out = intro;
  for (const KeySpec& k : declared_keys())
    out += fmt::format("| `{}` | {} | {} | {} |\n", k.path, default_text(k.get(defaults)), k.values, k.doc);
  return out;
}

}  // namespace vidpipe
