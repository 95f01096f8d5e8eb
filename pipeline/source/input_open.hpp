// Opening an input: files, V4L2 cameras (/dev/videoN through avdevice, with the
// camera's format, size and rate from the config) and network URLs. Live inputs
// get an I/O deadline so that a silent sender is noticed instead of blocking forever.
#pragma once
#include <atomic>
#include <string>

#include "memory/av_raii.hpp"
#include "source/input_config.hpp"

namespace vidpipe {

// What FFmpeg's interrupt callback checks: a stop request or a passed deadline.
class IoDeadline {
 public:
  // `cancel` (may be null): a second stop flag, the run's own (a signal), heard while the
  // reader is still being opened and nobody could call request_stop() yet.
  explicit IoDeadline(const std::atomic<bool>& stop, const std::atomic<bool>* cancel = nullptr)
      : stop_(stop), cancel_(cancel) {}
  bool stopped() const { return stop_.load() || (cancel_ && cancel_->load()); }
  // Blocking I/O that starts now gives up after `seconds` (<= 0: never).
  void arm(double seconds);
  bool expired() const;
  // Whether the deadline (not a stop) interrupted I/O since clear(). Sticky, as the
  // interrupted AVIOContext is: later reads fail at once without asking again.
  bool fired() const { return fired_; }
  void clear() { fired_ = false; }
  AVIOInterruptCB callback();
  // Reliability tests only (VIDPIPE_INJECT_FAULT): the next time FFmpeg asks the callback,
  // from inside whatever I/O it is doing, SIGTERM is raised there, as a signal landing at
  // that moment would be.
  void raise_stop_at_next_check() { raise_stop_ = true; }

 private:
  static int check(void* self);
  const std::atomic<bool>& stop_;
  const std::atomic<bool>* cancel_;
  std::atomic<double> deadline_{0.0};
  std::atomic<bool> fired_{false};
  std::atomic<bool> raise_stop_{false};
};

bool is_camera_uri(const std::string& uri);
// A named pipe: its reads, like a live input's, may wait forever, so they obey input.timeout_ms.
bool is_named_pipe(const std::string& uri);
// A URL read over the network (http://, rtsp://, tcp://...; not file:): its open and
// every read get input.timeout_ms, whether or not it is live.
bool is_network_uri(const std::string& uri);

// The avdevice options for a camera: input_format, video_size, framerate.
AvDictionaryPtr camera_options(const CameraOptions& camera);

bool is_rtsp_uri(const std::string& uri);
// The demuxer options for `uri`: the camera's for /dev/videoN, the transport for rtsp://.
AvDictionaryPtr input_options(const std::string& uri, const InputConfig& options);

// Opens `uri` and reads its stream info; throws InputError naming the input.
AvInputPtr open_input(const std::string& uri, const InputConfig& options, IoDeadline& deadline, double timeout_s);

}  // namespace vidpipe
