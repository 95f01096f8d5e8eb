#include "config/output_guard.hpp"

#include <climits>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.hpp"
#include "base/output_file.hpp"
#include "sink/sink_config.hpp"

namespace vidpipe {
namespace {

namespace fs = std::filesystem;

struct Output {
  std::string key, path;
};

// What the run reads, by what it is to the user.
struct ReadFile {
  std::string what, path;
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
  std::erase_if(out, [](const Output& o) { return o.path.empty() || o.path.find("://") != std::string::npos; });
  return out;
}

std::vector<ReadFile> files_read(const Config& c) {
  std::vector<ReadFile> read;
  for (const std::string& uri : input_uris(c))
    if (const std::string path = local_path_of(uri); !path.empty()) read.push_back({"the input '" + uri + "'", path});
  if (!c.file.empty()) read.push_back({"the config file", c.file});
  std::error_code ec;
  // With inference off too: the model is the user's file to keep whether or not this run reads it.
  if (fs::is_directory(c.gpu.model, ec))
    for (const auto& entry : fs::directory_iterator(c.gpu.model, ec))
      if (entry.is_regular_file(ec)) read.push_back({"a file of the model (gpu.model)", entry.path().string()});
  return read;
}

// The same file however spelt (relative, through symlinks, hard links: device and inode).
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::equivalent(a, b, ec) && !ec;
}

// Two outputs land on one file: the same existing file, or the same place to be made.
// Special files (/dev/null twice) take any number of writers.
bool same_place(const std::string& a, const std::string& b) {
  if (is_special_file(a) || is_special_file(b)) return false;
  if (same_file(a, b)) return true;
  std::error_code ec_a, ec_b;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), ec_a), cb = fs::weakly_canonical(fs::absolute(b), ec_b);
  return !ec_a && !ec_b && ca == cb;
}

}  // namespace

void refuse_outputs_onto_inputs(const Config& c, bool bench) {
  const std::vector<Output> outputs = outputs_of(c, static_cast<int>(input_uris(c).size()), bench);
  const std::vector<ReadFile> read = files_read(c);  // lists the model's folder: once, not per output
  for (const Output& o : outputs)
    for (const ReadFile& r : read)
      if (same_file(o.path, r.path))
        throw ConfigError(config_error(c, o.key, "'" + o.path + "' is " + r.what +
                                                     "; writing it would destroy what the run reads: choose another path"));
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (same_place(outputs[i].path, outputs[j].path))
        throw ConfigError(config_error(c, outputs[j].key, "'" + outputs[j].path + "' is also " + outputs[i].key +
                                                              "; one output would overwrite the other: choose another path"));
}

void check_output_places(const Config& c, bool bench) {
  for (const Output& o : outputs_of(c, static_cast<int>(input_uris(c).size()), bench)) {
    const fs::path path(o.path);
    const std::string cannot = "cannot write '" + o.path + "': ";
    std::error_code ec;
    if (o.path.size() >= PATH_MAX || path.filename().string().size() > NAME_MAX)
      throw ConfigError(config_error(c, o.key, cannot + "the name is longer than the file system allows"));
    if (fs::is_directory(path, ec))
      throw ConfigError(config_error(c, o.key, cannot + "it is a folder; name a file in it"));
    const fs::path folder = path.parent_path();
    if (!folder.empty() && !fs::is_directory(folder, ec))
      throw ConfigError(config_error(c, o.key, cannot + "the folder '" + folder.string() + "' does not exist"));
  }
  if (const std::string problem = container_problem(c.sink); !problem.empty())
    throw ConfigError(config_error(c, "sink.path", problem));
  if (const std::string problem = pixel_format_problem(c.sink); !problem.empty())
    throw ConfigError(config_error(c, "sink.pixel_format", problem));
}

}  // namespace vidpipe
