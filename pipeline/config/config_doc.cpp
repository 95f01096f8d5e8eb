// config/README.md, generated from the key declarations so that the docs cannot drift
// from what the loader accepts (a unit test compares the file with this text).
#include <fmt/format.h>

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

}  // namespace

std::string config_reference_markdown() {
  const Config defaults;
  std::string out = intro;
  for (const KeySpec& k : declared_keys())
    out += fmt::format("| `{}` | {} | {} | {} |\n", k.path, default_text(k.get(defaults)), k.values, k.doc);
  return out;
}

}  // namespace vidpipe
