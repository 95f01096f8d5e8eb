// The input.* keys: what to read and how a live source is treated. Declared in
// input_config.cpp; the reader and the frame sources take this struct whole.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace vidpipe {

template <class S>
class Keys;

// What a live input drops when the pipeline falls behind.
enum class DropPolicy { oldest, newest, none };
enum class CameraFormat { automatic, mjpeg, yuyv };
enum class RtspTransport { tcp, udp, automatic };

struct CameraOptions {
  CameraFormat format = CameraFormat::automatic;
  int width = 0, height = 0;  // 0: the camera's default
  int fps = 0;
};

struct ReconnectOptions {
  int attempts = 5;
  int backoff_ms = 500;  // doubles per attempt, at most 8 s
};

struct InputConfig {
  std::string uri = "assets/sample-4k.mp4";
  bool loop = false;
  bool keep_running = false;  // serve: wait for inputs added over HTTP (service/input_service.hpp)
  bool realtime = false;
  std::int64_t max_frames = 0;
  DropPolicy drop = DropPolicy::oldest;
  int queue_frames = 0;
  int timeout_ms = 3000;
  ReconnectOptions reconnect;
  CameraOptions camera;
  RtspTransport rtsp_transport = RtspTransport::tcp;
  int preload = 0;  // frames decoded once and replayed from memory; 0: off
  bool stagger = false;  // input k of N starts k/N of the way into its file
};

// input.stagger: how far into its file input `input` of `inputs` starts (ReaderOptions::start_fraction).
inline double stagger_fraction(const InputConfig& in, std::size_t input, std::size_t inputs) {
  return in.stagger && inputs > 1 ? static_cast<double>(input) / static_cast<double>(inputs) : 0.0;
}

void declare_keys(Keys<InputConfig>& keys);

}  // namespace vidpipe
