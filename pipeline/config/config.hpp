// The run configuration: one section struct per component, each declaring its own keys
// beside it (source/input_config, source/reader_config, device/copy_config,
// device/gpu_config, sink/sink_config, metrics/metrics_config). This file composes them
// and loads YAML + --set overrides against that declaration; config/README.md is
// generated from it (config_reference_markdown).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/bench_config.hpp"
#include "device/copy_config.hpp"
#include "device/gpu_config.hpp"
#include "metrics/metrics_config.hpp"
#include "service/control_config.hpp"
#include "sink/sink_config.hpp"
#include "source/input_config.hpp"
#include "source/reader_config.hpp"

namespace vidpipe {

enum class DeviceChoice { automatic, cpu, gpu };

struct Config {
  DeviceChoice device = DeviceChoice::automatic;
  InputConfig input;
  // Several inputs in one process (empty: input.uri alone); each gets input.* settings.
  std::vector<std::string> inputs;
  ReaderConfig reader;
  CopyConfig copy;
  GpuConfig gpu;
  OverlayConfig overlay;
  SinkConfig sink;
  MetricsConfig metrics;
  ControlConfig control;
  BenchConfig bench;

  // Where each key was set ("file:line:col", "--set", "--input", or "default"), for messages.
  std::map<std::string, std::string> origin;
  std::string file;  // the config file it was loaded from (empty: none): never an output
};

// A key set to a string as it is, not read as YAML: a path given to --input or --report
// may hold '#', '[', ': ' or quotes. `option` names where it came from (e.g. "--input").
struct LiteralSetting {
  std::string key, value, option;
};

// Loads `path` (may be empty: defaults only), applies `overrides` ("key=value") and then
// `literal`. Throws ConfigError with one line naming the file, line and key.
Config load_config(const std::string& path, const std::vector<std::string>& overrides,
                   const std::vector<LiteralSetting>& literal = {});

// Every key the loader accepts, dotted, in declaration order.
std::vector<std::string> config_keys();

// Every key's value, under the config's own key names (for the report).
nlohmann::json config_json(const Config& c);

// config/README.md, made from the key declarations (`vidpipe config-doc` writes it).
std::string config_reference_markdown();
// A complete commented YAML config, every key at its default (`vidpipe config-doc --yaml`).
std::string config_template_yaml();

// The file a local input or output names: a plain path as it is, file:///a/b%20c.mp4 and
// file:b.mp4 as /a/b c.mp4 and b.mp4 (FFmpeg's file protocol); "" for other URLs.
std::string local_path_of(const std::string& uri);

// Throws InputError (the input's fault, not the config's: exit code 3) naming the key and
// the file when an input file does not exist.
void check_inputs_exist(const Config& c);

// The inputs to read: `inputs` when given, else input.uri.
std::vector<std::string> input_uris(const Config& c);

// Network streams and cameras deliver frames whether or not the pipeline keeps up.
bool is_live_uri(const std::string& uri);

// "where: key: message", for checks made after loading.
std::string config_error(const Config& c, const std::string& key, const std::string& message);

}  // namespace vidpipe
