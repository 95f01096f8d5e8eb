#include "config/config.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <fstream>

#include "base/redact.hpp"
#include "base/edit_distance.hpp"
#include "base/errors.hpp"
#include "config/data_files.hpp"
#include "config/keys.hpp"

namespace vidpipe {
namespace {

using keys_detail::describe;

// A section of the Config whose component declares its own keys.
template <class Section>
void declare_section(Keys<Config>& root, const std::string& name, Section Config::*member) {
  Keys<Section> keys = root.section(name, member);
  declare_keys(keys);
}

// The whole table: the run's own keys here, each component's from its declare_keys().
std::vector<KeySpec> declare_all_keys() {
  std::vector<KeySpec> keys;
  Keys<Config> root(keys, "", [](Config& c) -> Config& { return c; }, [](const Config& c) -> const Config& { return c; });
  root.choice("device", &Config::device,
              {{"auto", DeviceChoice::automatic}, {"cpu", DeviceChoice::cpu}, {"gpu", DeviceChoice::gpu}},
              "where the GPU stage runs. `auto` uses the GPU when one is present and otherwise runs the "
              "kernels' CPU references; `gpu` fails without a device.");
  declare_section(root, "input", &Config::input);
  root.text_list("inputs", &Config::inputs, "list of inputs",
                 "several inputs in one process, each as `input.uri` would take it, all with the other `input.*` "
                 "settings. They share the GPU: frames of all inputs meet in one queue and share batches "
                 "(preprocessing per input, one inference launch per batch). Each gets its own output "
                 "(`sink.path` gets `-0`, `-1`, ... before the extension; stream URLs the next ports) and its "
                 "own line in the report. Empty: `input.uri` alone.");
  declare_section(root, "reader", &Config::reader);
  declare_section(root, "copy", &Config::copy);
  declare_section(root, "gpu", &Config::gpu);
  declare_section(root, "overlay", &Config::overlay);
  declare_section(root, "sink", &Config::sink);
  declare_section(root, "metrics", &Config::metrics);
  declare_section(root, "control", &Config::control);
  declare_section(root, "bench", &Config::bench);
  return keys;
}

const std::vector<KeySpec>& key_table() {
  static const std::vector<KeySpec> keys = declare_all_keys();
  return keys;
}

const KeySpec* find_key(const std::string& path) {
  for (const auto& k : key_table())
    if (k.path == path) return &k;
  return nullptr;
}

bool is_section(const std::string& path) {
  for (const auto& k : key_table())
    if (k.path.rfind(path + ".", 0) == 0) return true;
  return false;
}

std::string unknown_key_message(const std::string& path) {
  std::string best;
  std::size_t best_d = 4;  // suggest only near misses
  for (const auto& k : key_table())
    if (const auto d = edit_distance(path, k.path); d < best_d) best_d = d, best = k.path;
  return "unknown key" + (best.empty() ? std::string() : " (did you mean '" + best + "'?)");
}

std::string where(const std::string& file, const YAML::Mark& m) {
  return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

void apply(Config& c, const std::string& path, const YAML::Node& value, const std::string& at) {
  const KeySpec* key = find_key(path);
  if (!key) throw ConfigError(at + ": " + path + ": " + unknown_key_message(path));
  try {
    key->set(c, value);
  } catch (const std::string& message) {
    throw ConfigError(at + ": " + path + ": " + message);
  }
  c.origin[path] = at;
}

void walk(Config& c, const YAML::Node& map, const std::string& prefix, const std::string& file) {
  // yaml-cpp keeps both entries of a repeated key and lookups see the first: a user editing
  // the second would see no effect. Say so instead.
  std::set<std::string> seen;
  for (const auto& item : map)
    if (item.first.IsScalar() && !seen.insert(item.first.Scalar()).second)
      throw ConfigError(where(file, item.first.Mark()) + ": " + (prefix.empty() ? "" : prefix + ".") +
                        item.first.Scalar() + ": given twice in this section; keep one");
  for (const auto& item : map) {
    // A YAML key can itself be a list or map ("? [a, b]: 1"); no vidpipe key is.
    if (!item.first.IsScalar())
      throw ConfigError(where(file, item.first.Mark()) + ": expected a key name, got " + describe(item.first));
    const std::string name = item.first.Scalar();
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    if (is_section(path)) {
      if (!item.second.IsMap())
        throw ConfigError(where(file, item.second.Mark()) + ": " + path + ": expected a section of keys, got " +
                          describe(item.second));
      walk(c, item.second, path, file);
    } else {
      apply(c, path, item.second, where(file, item.first.Mark()));
    }
  }
}

bool is_file_uri(const std::string& uri) {
  return uri.find("://") == std::string::npos && uri.rfind("/dev/", 0) != 0 && uri.rfind("file:", 0) != 0;
}

int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

// Written here: RFC 8089's percent-decoding for one scheme, where a URL library would be a
// dependency for ten lines.
std::string percent_decoded(const std::string& text) {
  std::string decoded;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 && hex_digit(text[i + 2]) >= 0) {
      decoded += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

bool is_stream_url(const std::string& url) { return url.rfind("udp://", 0) == 0 || url.rfind("tcp://", 0) == 0; }

}  // namespace

std::string local_path_of(const std::string& uri) {
  if (uri.rfind("file://", 0) == 0) return percent_decoded(uri.substr(7));
  if (uri.rfind("file:", 0) == 0) return percent_decoded(uri.substr(5));
  return uri.find("://") == std::string::npos ? uri : "";
}

void check_inputs_exist(const Config& c) {
  const std::string input_key = c.inputs.empty() ? "input.uri" : "inputs";
  for (const std::string& uri : input_uris(c)) {
    const std::string path = local_path_of(uri);
    if (!path.empty() && path.rfind("/dev/", 0) != 0 && !std::filesystem::exists(path))
      throw InputError(config_error(c, input_key, "input file '" + uri + "' does not exist"));
  }
}

std::vector<std::string> input_uris(const Config& c) {
  return c.inputs.empty() ? std::vector<std::string>{c.input.uri} : c.inputs;
}

bool is_live_uri(const std::string& uri) {
  for (const char* scheme : {"udp://", "tcp://", "rtp://", "rtsp://", "rtsps://", "srt://", "rtmp://"})
    if (uri.rfind(scheme, 0) == 0) return true;
  // A device that captures (a V4L2 camera or capture card) is live; /dev/stdin or /dev/fd/N
  // fed by `cat clip.ts |` is a pipe that ends, read whole like a file (it was a camera:
  // frames dropped, and "gave up after 5 reconnect attempts" at its end); any other device
  // (/dev/zero, a terminal) is no camera either, and was retried for 16 s as one.
  if (uri.rfind("/dev/video", 0) == 0) return true;
  struct stat st {};
  constexpr unsigned video4linux_major = 81;
  return uri.rfind("/dev/", 0) == 0 && ::stat(uri.c_str(), &st) == 0 && S_ISCHR(st.st_mode) &&
         major(st.st_rdev) == video4linux_major;
}

std::vector<std::string> config_keys() {
  std::vector<std::string> out;
  for (const auto& k : key_table()) out.push_back(k.path);
  return out;
}

std::string config_error(const Config& c, const std::string& key, const std::string& message) {
  const auto it = c.origin.find(key);
  return (it == c.origin.end() ? std::string("default") : it->second) + ": " + key + ": " + message;
}

namespace {

void apply_file(Config& c, const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw ConfigError("config file '" + path + "' is a directory; give a YAML file (e.g. config/default.yaml)");
  // A FIFO with no writer would block the open for ever, a device would never end.
  if (std::filesystem::exists(path, ignored) && !std::filesystem::is_regular_file(path, ignored))
    throw ConfigError("config file '" + path + "' is not a regular file (a pipe or a device); give a YAML file");
  std::ifstream in(path);
  if (!in) {
    std::string searched;
    for (const auto& root : data_roots()) searched += ", " + root.string();
    throw ConfigError("cannot read config file '" + path + "' (looked in the working folder" + searched +
                      "; VIDPIPE_DATA names another)");
  }
  YAML::Node root;
  try {
    root = YAML::Load(in);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(where(path, e.mark) + ": YAML syntax error: " + e.msg);
  }
  if (!root.IsDefined() || root.IsNull()) return;
  if (!root.IsMap()) throw ConfigError(where(path, root.Mark()) + ": expected a map of sections at the top");
  walk(c, root, "", path);
}

void apply_override(Config& c, const std::string& o) {
  const auto eq = o.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + o + ": expected key=value, e.g. --set copy.streams=4");
  const std::string key = o.substr(0, eq);
  YAML::Node value;
  try {
    value = YAML::Load(o.substr(eq + 1));
  } catch (const YAML::ParserException& e) {
    throw ConfigError("--set " + key + ": cannot parse value: " + e.msg);
  }
  if (is_section(key)) throw ConfigError("--set " + key + ": is a section; set one of its keys");
  apply(c, key, value, "--set");
}

// gpu.model: the built-in detector's folder (square input, a multiple of 32) or an .onnx file
// (its input and outputs are checked when the run opens it: infer/onnx_setup.hpp).
void check_model(const Config& c) {
  if (!c.gpu.inference) return;
  if (is_onnx_model(c.gpu.model)) {
    if (!std::filesystem::is_regular_file(c.gpu.model))
      throw ConfigError(config_error(c, "gpu.model", "no ONNX model file '" + c.gpu.model + "'"));
    // Set, it would be passed over without a word: the decoder reads its four heads by shape.
    if (c.gpu.onnx.decoder == OutputDecoder::blazeface && !c.gpu.onnx.output.empty())
      throw ConfigError(config_error(c, "gpu.onnx.output", "'" + c.gpu.onnx.output +
                                                               "': gpu.onnx.decoder blazeface finds its four outputs "
                                                               "by their shapes; leave gpu.onnx.output empty"));
    return;
  }
  const PreprocessConfig& p = c.gpu.preprocess;
  if (p.width != p.height || p.width % 32 != 0)
    throw ConfigError(config_error(c, "gpu.preprocess.width",
                                   "with inference on, the input must be square and a multiple of 32, got " +
                                       std::to_string(p.width) + "x" + std::to_string(p.height)));
  if (!std::filesystem::exists(std::filesystem::path(c.gpu.model) / "tiny_face_detector_model-weights_manifest.json"))
    throw ConfigError(config_error(c, "gpu.model", "no TinyFaceDetector model in '" + c.gpu.model +
                                                       "' (scripts/setup.sh fetches it; or set gpu.inference: false)"));
}

// Checks that need more than one key, or the file system.
void check_consistency(const Config& c) {
  const std::string input_key = c.inputs.empty() ? "input.uri" : "inputs";
  for (const std::string& uri : input_uris(c))
    if (uri.empty()) throw ConfigError(config_error(c, input_key, "must not be empty"));
  check_model(c);
  if (c.input.stagger && !c.input.loop)
    throw ConfigError(config_error(c, "input.stagger", "needs input.loop: true (a file started part way "
                                                       "would end before its own start played)"));
  if (c.sink.kind == SinkKind::encode && c.sink.path.empty())
    throw ConfigError(config_error(c, "sink.path", "must not be empty when sink.kind is encode"));
  if (c.sink.kind == SinkKind::stream && !is_stream_url(c.sink.path))
    throw ConfigError(config_error(c, "sink.path", "sink.kind stream sends MPEG-TS to a udp://host:port or "
                                                   "tcp://host:port URL, got '" + redacted_uri(c.sink.path) + "'"));
}

// Files the run reads, when not found from the working directory, come from the data folders
// (the bundled clip and model from any directory); outputs stay where they were named.
void locate_data_files(Config& c) {
  if (is_file_uri(c.input.uri)) c.input.uri = find_data_file(c.input.uri);
  for (std::string& uri : c.inputs)
    if (is_file_uri(uri)) uri = find_data_file(uri);
  c.gpu.model = find_data_file(c.gpu.model);
}

}  // namespace

Config load_config(const std::string& path, const std::vector<std::string>& overrides,
                   const std::vector<LiteralSetting>& literal) {
  Config c;
  if (!path.empty()) {
    c.file = find_data_file(path);
    apply_file(c, c.file);
  }
  for (const std::string& o : overrides) apply_override(c, o);
  for (const LiteralSetting& l : literal) apply(c, l.key, YAML::Node(l.value), l.option);
  locate_data_files(c);
  check_consistency(c);
  return c;
}

nlohmann::json config_json(const Config& c) {
  nlohmann::json out = nlohmann::json::object();
  for (const KeySpec& k : key_table()) {
    nlohmann::json* node = &out;
    std::string rest = k.path;
    for (auto dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.')) {
      node = &(*node)[rest.substr(0, dot)];
      rest = rest.substr(dot + 1);
    }
    (*node)[rest] = k.get(c);
  }
  return out;
}

const std::vector<KeySpec>& declared_keys() { return key_table(); }

}  // namespace vidpipe
