#include "config/output_guard.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.hpp"
#include "sink/sink_config.hpp"

namespace vidpipe {
namespace {

struct Output {
  std::string key, path;
};

std::vector<Output> outputs_of(const Config& c, int inputs, bool bench) {
  std::vector<Output> out;
  if (c.sink.kind == SinkKind::encode)
    for (int i = 0; i < inputs; ++i) {
      const std::string path = sink_path_for(c.sink.path, i, inputs);
      out.push_back({"sink.path", path});
      out.push_back({"sink.path", temporary_path_for(path)});
    }
  out.push_back({"metrics.report", c.metrics.report});
  out.push_back({"metrics.trace", c.metrics.trace});
  out.push_back({"metrics.detections", c.metrics.detections});
  if (bench) {
    out.push_back({"bench.json", c.bench.json});
    out.push_back({"bench.chart", c.bench.chart});
  }
  return out;
}

// Only an output that exists already can be an input (inputs exist); equivalent() compares
// device and inode.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return !a.empty() && std::filesystem::exists(a, ec) && std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace

void refuse_outputs_onto_inputs(const Config& c, bool bench) {
  const std::vector<std::string> inputs = input_uris(c);
  for (const Output& o : outputs_of(c, static_cast<int>(inputs.size()), bench))
    for (const std::string& input : inputs)
      if (input.find("://") == std::string::npos && same_file(o.path, input))
        throw ConfigError(config_error(c, o.key,
                                       "'" + o.path + "' is the input '" + input +
                                           "' itself; writing it would destroy the input: choose another path"));
}

void check_output_places(const Config& c, bool bench) {
  if (const std::string problem = container_problem(c.sink); !problem.empty())
    throw ConfigError(config_error(c, "sink.path", problem));
  if (const std::string problem = pixel_format_problem(c.sink); !problem.empty())
    throw ConfigError(config_error(c, "sink.pixel_format", problem));
  for (const Output& o : outputs_of(c, static_cast<int>(input_uris(c).size()), bench)) {
    if (o.path.empty() || o.path.find("://") != std::string::npos) continue;
    const std::filesystem::path folder = std::filesystem::path(o.path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec))
      throw ConfigError(config_error(c, o.key, "cannot write '" + o.path + "': the folder '" + folder.string() +
                                                   "' does not exist"));
  }
}

}  // namespace vidpipe
