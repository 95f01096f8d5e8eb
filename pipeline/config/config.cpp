#include "config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include "base/errors.hpp"

namespace vidpipe {
namespace {

// Applies one YAML scalar/sequence to the config; throws std::string on a bad value.
using Setter = std::function<void(Config&, const YAML::Node&)>;

struct KeySpec {
  std::string path;
  Setter set;
};

std::string describe(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a section";
  return "nothing";
}

template <class T>
T scalar_as(const YAML::Node& n, const char* what) {
  if (!n.IsScalar()) throw std::string("expected ") + what + ", got " + describe(n);
  try {
    return n.as<T>();
  } catch (const YAML::Exception&) {
    throw std::string("expected ") + what + ", got " + describe(n);
  }
}

template <class T>
KeySpec integer(std::string path, T& (*field)(Config&), std::int64_t lo, std::int64_t hi) {
  return {std::move(path), [=](Config& c, const YAML::Node& n) {
            const auto v = scalar_as<std::int64_t>(n, "an integer");
            if (v < lo || v > hi)
              throw "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + std::to_string(v);
            field(c) = static_cast<T>(v);
          }};
}

KeySpec real(std::string path, double& (*field)(Config&), double lo, double hi) {
  return {std::move(path), [=](Config& c, const YAML::Node& n) {
            const auto v = scalar_as<double>(n, "a number");
            if (!(v >= lo && v <= hi))
              throw "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + n.Scalar();
            field(c) = v;
          }};
}

KeySpec boolean(std::string path, bool& (*field)(Config&)) {
  return {std::move(path), [=](Config& c, const YAML::Node& n) { field(c) = scalar_as<bool>(n, "true or false"); }};
}

KeySpec text(std::string path, std::string& (*field)(Config&)) {
  // An empty value (`key:` or --set key=) reads as null: for a string it is "".
  return {std::move(path), [=](Config& c, const YAML::Node& n) {
            field(c) = n.IsNull() ? std::string() : scalar_as<std::string>(n, "a string");
          }};
}

KeySpec choice(std::string path, std::string& (*field)(Config&), std::vector<std::string> choices) {
  return {std::move(path), [=](Config& c, const YAML::Node& n) {
            // YAML reads a bare `null` as no value; for a choice it is the word.
            const auto v = n.IsNull() ? std::string("null") : scalar_as<std::string>(n, "a string");
            if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
              std::string list;
              for (const auto& ch : choices) list += (list.empty() ? "" : " | ") + ch;
              throw "must be one of " + list + ", got '" + v + "'";
            }
            field(c) = v;
          }};
}

KeySpec int_list(std::string path, std::vector<int>& (*field)(Config&), int lo, int hi) {
  return {std::move(path), [=](Config& c, const YAML::Node& n) {
            if (!n.IsSequence() || n.size() == 0) throw "expected a list of integers, got " + describe(n);
            std::vector<int> v;
            for (std::size_t i = 0; i < n.size(); ++i) {
              const auto x = scalar_as<std::int64_t>(n[i], "an integer");
              if (x < lo || x > hi)
                throw "every entry must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                    std::to_string(x);
              v.push_back(static_cast<int>(x));
            }
            field(c) = v;
          }};
}

KeySpec text_list(std::string path, std::vector<std::string>& (*field)(Config&)) {
  return {std::move(path), [=](Config& c, const YAML::Node& n) {
            if (!n.IsSequence() || n.size() == 0) throw "expected a list of strings, got " + describe(n);
            std::vector<std::string> v;
            for (std::size_t i = 0; i < n.size(); ++i) v.push_back(scalar_as<std::string>(n[i], "a string"));
            field(c) = v;
          }};
}

KeySpec triple(std::string path, std::array<double, 3>& (*field)(Config&)) {
  return {std::move(path), [=](Config& c, const YAML::Node& n) {
            if (!n.IsSequence() || n.size() != 3) throw "expected a list of 3 numbers, got " + describe(n);
            for (std::size_t i = 0; i < 3; ++i) field(c)[i] = scalar_as<double>(n[i], "a number");
          }};
}

const std::vector<KeySpec>& key_table() {
  constexpr std::int64_t int_max = std::numeric_limits<int>::max();
  static const std::vector<KeySpec> keys = {
      choice("device", [](Config& c) -> std::string& { return c.device; }, {"auto", "cpu", "gpu"}),
      text("input.uri", [](Config& c) -> std::string& { return c.input.uri; }),
      boolean("input.loop", [](Config& c) -> bool& { return c.input.loop; }),
      boolean("input.realtime", [](Config& c) -> bool& { return c.input.realtime; }),
      integer<std::int64_t>("input.max_frames", [](Config& c) -> std::int64_t& { return c.input.max_frames; }, 0,
                            std::numeric_limits<std::int64_t>::max()),
      choice("input.drop", [](Config& c) -> std::string& { return c.input.drop; }, {"oldest", "newest", "none"}),
      integer<int>("input.queue_frames", [](Config& c) -> int& { return c.input.queue_frames; }, 0, 256),
      integer<int>("input.timeout_ms", [](Config& c) -> int& { return c.input.timeout_ms; }, 10, 600000),
      integer<int>("input.reconnect.attempts", [](Config& c) -> int& { return c.input.reconnect.attempts; }, 0, 1000),
      integer<int>("input.reconnect.backoff_ms", [](Config& c) -> int& { return c.input.reconnect.backoff_ms; }, 1,
                   60000),
      choice("input.camera.format", [](Config& c) -> std::string& { return c.input.camera.format; },
             {"auto", "mjpeg", "yuyv"}),
      integer<int>("input.camera.width", [](Config& c) -> int& { return c.input.camera.width; }, 0, 16384),
      integer<int>("input.camera.height", [](Config& c) -> int& { return c.input.camera.height; }, 0, 16384),
      choice("input.rtsp_transport", [](Config& c) -> std::string& { return c.input.rtsp_transport; },
             {"tcp", "udp", "auto"}),
      integer<int>("input.camera.fps", [](Config& c) -> int& { return c.input.camera.fps; }, 0, 1000),
      text_list("inputs", [](Config& c) -> std::vector<std::string>& { return c.inputs; }),
      choice("reader.decoder", [](Config& c) -> std::string& { return c.reader.decoder; }, {"cpu", "nvdec"}),
      integer<int>("reader.threads", [](Config& c) -> int& { return c.reader.threads; }, 0, 64),
      integer<int>("reader.pool_frames", [](Config& c) -> int& { return c.reader.pool_frames; }, 0, 1024),
      choice("copy.mode", [](Config& c) -> std::string& { return c.copy.mode; }, {"sync", "async"}),
      choice("copy.memory", [](Config& c) -> std::string& { return c.copy.memory; }, {"pinned", "pageable"}),
      integer<int>("copy.streams", [](Config& c) -> int& { return c.copy.streams; }, 1, 32),
      integer<int>("copy.batch_size", [](Config& c) -> int& { return c.copy.batch_size; }, 1, 64),
      integer<std::int64_t>("copy.chunk_bytes", [](Config& c) -> std::int64_t& { return c.copy.chunk_bytes; }, 0,
                            std::int64_t{1} << 32),
      integer<int>("gpu.device", [](Config& c) -> int& { return c.gpu.device; }, 0, 63),
      integer<int>("gpu.preprocess.width", [](Config& c) -> int& { return c.gpu.preprocess.width; }, 16, 4096),
      integer<int>("gpu.preprocess.height", [](Config& c) -> int& { return c.gpu.preprocess.height; }, 16, 4096),
      choice("gpu.preprocess.align", [](Config& c) -> std::string& { return c.gpu.preprocess.align; },
             {"top_left", "centre"}),
      triple("gpu.preprocess.mean", [](Config& c) -> std::array<double, 3>& { return c.gpu.preprocess.mean; }),
      real("gpu.preprocess.scale", [](Config& c) -> double& { return c.gpu.preprocess.scale; }, 1e-9, 1e9),
      boolean("gpu.inference", [](Config& c) -> bool& { return c.gpu.inference; }),
      text("gpu.model", [](Config& c) -> std::string& { return c.gpu.model; }),
      real("gpu.score_threshold", [](Config& c) -> double& { return c.gpu.score_threshold; }, 0.01, 0.99),
      real("gpu.iou_threshold", [](Config& c) -> double& { return c.gpu.iou_threshold; }, 0.01, 1.0),
      boolean("overlay.boxes", [](Config& c) -> bool& { return c.overlay.boxes; }),
      boolean("overlay.hud", [](Config& c) -> bool& { return c.overlay.hud; }),
      choice("sink.kind", [](Config& c) -> std::string& { return c.sink.kind; }, {"encode", "stream", "display", "null"}),
      text("sink.path", [](Config& c) -> std::string& { return c.sink.path; }),
      text("sink.codec", [](Config& c) -> std::string& { return c.sink.codec; }),
      choice("sink.preset", [](Config& c) -> std::string& { return c.sink.preset; },
             {"ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"}),
      integer<int>("sink.crf", [](Config& c) -> int& { return c.sink.crf; }, 0, 51),
      integer<int>("sink.threads", [](Config& c) -> int& { return c.sink.threads; }, 0, 64),
      integer<int>("metrics.warmup_frames", [](Config& c) -> int& { return c.metrics.warmup_frames; }, 0, int_max),
      integer<std::int64_t>("metrics.keep_frames", [](Config& c) -> std::int64_t& { return c.metrics.keep_frames; }, 100,
                            100'000'000),
      text("metrics.report", [](Config& c) -> std::string& { return c.metrics.report; }),
      boolean("metrics.live", [](Config& c) -> bool& { return c.metrics.live; }),
      text("metrics.trace", [](Config& c) -> std::string& { return c.metrics.trace; }),
      int_list("bench.streams", [](Config& c) -> std::vector<int>& { return c.bench.streams; }, 1, 32),
      text("bench.json", [](Config& c) -> std::string& { return c.bench.json; }),
      text("bench.chart", [](Config& c) -> std::string& { return c.bench.chart; }),
  };
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

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
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
  return uri.find("://") == std::string::npos && uri.rfind("/dev/", 0) != 0;
}

bool is_stream_url(const std::string& url) { return url.rfind("udp://", 0) == 0 || url.rfind("tcp://", 0) == 0; }

}  // namespace

std::vector<std::string> input_uris(const Config& c) {
  return c.inputs.empty() ? std::vector<std::string>{c.input.uri} : c.inputs;
}

bool is_live_uri(const std::string& uri) {
  for (const char* scheme : {"udp://", "tcp://", "rtp://", "rtsp://", "rtsps://", "srt://", "rtmp://"})
    if (uri.rfind(scheme, 0) == 0) return true;
  return uri.rfind("/dev/", 0) == 0;
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

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  Config c;
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) throw ConfigError("cannot read config file '" + path + "'");
    YAML::Node root;
    try {
      root = YAML::Load(in);
    } catch (const YAML::ParserException& e) {
      throw ConfigError(where(path, e.mark) + ": YAML syntax error: " + e.msg);
    }
    if (root.IsDefined() && !root.IsNull()) {
      if (!root.IsMap()) throw ConfigError(where(path, root.Mark()) + ": expected a map of sections at the top");
      walk(c, root, "", path);
    }
  }
  for (const std::string& o : overrides) {
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
  const std::string input_key = c.inputs.empty() ? "input.uri" : "inputs";
  for (const std::string& uri : input_uris(c)) {
    if (uri.empty()) throw ConfigError(config_error(c, input_key, "must not be empty"));
    if (is_file_uri(uri) && !std::filesystem::exists(uri))
      throw ConfigError(config_error(c, input_key, "input file '" + uri + "' does not exist"));
  }
  if (c.gpu.inference && (c.gpu.preprocess.width != c.gpu.preprocess.height || c.gpu.preprocess.width % 32 != 0))
    throw ConfigError(config_error(c, "gpu.preprocess.width", "with inference on, the input must be square and a multiple of 32, got " +
                                                                  std::to_string(c.gpu.preprocess.width) + "x" +
                                                                  std::to_string(c.gpu.preprocess.height)));
  if (c.gpu.inference && !std::filesystem::exists(std::filesystem::path(c.gpu.model) / "tiny_face_detector_model-weights_manifest.json"))
    throw ConfigError(config_error(c, "gpu.model", "no TinyFaceDetector model in '" + c.gpu.model +
                                                       "' (scripts/setup.sh fetches it; or set gpu.inference: false)"));
  if (c.sink.kind == "encode" && c.sink.path.empty())
    throw ConfigError(config_error(c, "sink.path", "must not be empty when sink.kind is encode"));
  if (c.sink.kind == "stream" && !is_stream_url(c.sink.path))
    throw ConfigError(config_error(c, "sink.path", "sink.kind stream sends MPEG-TS to a udp://host:port or "
                                                   "tcp://host:port URL, got '" + c.sink.path + "'"));
  return c;
}

}  // namespace vidpipe
