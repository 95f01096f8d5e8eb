// The run configuration: YAML file + --set overrides, validated against one table
// of keys (config.cpp) that also holds every default. config/README.md documents
// the same keys; a test checks the two agree.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vidpipe {

struct Config {
  std::string device = "auto";  // auto | cpu | gpu
  struct {
    std::string uri = "assets/sample-4k.mp4";
    bool loop = false;
    bool realtime = false;
    std::int64_t max_frames = 0;  // 0: all
    std::string drop = "oldest";  // live sources: oldest | newest | none
    int queue_frames = 0;         // live sources: frames waiting for the pipeline, 0 = 2 x batch
    int timeout_ms = 3000;        // live sources: no data this long = source lost
    struct {
      int attempts = 5;
      int backoff_ms = 500;       // doubles per attempt, at most 8 s
    } reconnect;
    struct {
      std::string format = "auto";  // auto | mjpeg | yuyv
      int width = 0, height = 0;    // 0: the camera's default
      int fps = 0;
    } camera;
    std::string rtsp_transport = "tcp";  // tcp | udp | auto
  } input;
  // Several inputs in one process (empty: input.uri alone); each gets input.* settings.
  std::vector<std::string> inputs;
  struct {
    std::string decoder = "cpu";  // cpu | nvdec
    int threads = 0;
    int pool_frames = 0;
  } reader;
  struct {
    std::string mode = "async";     // sync | async
    std::string memory = "pinned";  // pinned | pageable
    int streams = 2;
    int batch_size = 1;
    std::int64_t chunk_bytes = 0;
  } copy;
  struct {
    int device = 0;
    struct {
      int width = 416;
      int height = 416;
      std::string align = "top_left";  // top_left | centre
      std::array<double, 3> mean{117.001, 114.697, 97.404};
      double scale = 1.0 / 255.0;
    } preprocess;
    bool inference = true;
    std::string model = "assets/models/tiny_face_detector";
    double score_threshold = 0.4;
    double iou_threshold = 0.4;
  } gpu;
  struct {
    bool boxes = true;
    bool hud = true;
  } overlay;
  struct {
    std::string kind = "encode";  // encode | stream | display | null
    std::string path = "out.mp4";
    std::string codec = "auto";
    std::string preset = "veryfast";
    int crf = 23;
    int threads = 0;  // encoder threads, 0 = auto
  } sink;
  struct {
    int warmup_frames = 30;
    std::int64_t keep_frames = 10'000;  // frames kept whole; older ones are folded (bounded memory)
    std::string report = "report.json";
    std::string trace;  // empty: none
    bool live = true;
  } metrics;

  struct {
    std::vector<int> streams{2, 4};     // async modes to run besides 1 stream
    std::string json = "bench.json";
    std::string chart = "bench.png";
  } bench;

  // Where each key was set ("file:line:col", "--set", or "default"), for messages.
  std::map<std::string, std::string> origin;
};

// Loads `path` (may be empty: defaults only) and applies `overrides` ("key=value").
// Throws ConfigError with one line naming the file, line and key.
Config load_config(const std::string& path, const std::vector<std::string>& overrides);

// Every key the loader accepts, dotted, in table order.
std::vector<std::string> config_keys();

// The inputs to read: `inputs` when given, else input.uri.
std::vector<std::string> input_uris(const Config& c);

// Network streams and cameras deliver frames whether or not the pipeline keeps up.
bool is_live_uri(const std::string& uri);

// "where: key: message", for checks made after loading.
std::string config_error(const Config& c, const std::string& key, const std::string& message);

}  // namespace vidpipe
