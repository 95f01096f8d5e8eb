#include "source/input_open.hpp"

#include "base/redact.hpp"

extern "C" {
#include <libavdevice/avdevice.h>
}

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <utility>

#include "base/clock.hpp"
#include "base/errors.hpp"

namespace vidpipe {

void IoDeadline::arm(double seconds) {
  deadline_ = seconds > 0 ? steady_seconds() + seconds : 0.0;
}

bool IoDeadline::expired() const {
  const double d = deadline_;
  return d > 0 && steady_seconds() > d;
}

int IoDeadline::check(void* self) {
  auto* d = static_cast<IoDeadline*>(self);
  if (d->raise_stop_.exchange(false)) std::raise(SIGTERM);
  if (d->stopped()) return 1;
  if (!d->expired()) return 0;
  d->fired_ = true;
  return 1;
}

AVIOInterruptCB IoDeadline::callback() { return {&IoDeadline::check, this}; }

bool is_camera_uri(const std::string& uri) { return uri.rfind("/dev/video", 0) == 0; }

AvDictionaryPtr camera_options(const CameraOptions& camera) {
  AVDictionary* d = nullptr;
  if (camera.format == CameraFormat::mjpeg) av_dict_set(&d, "input_format", "mjpeg", 0);
  if (camera.format == CameraFormat::yuyv) av_dict_set(&d, "input_format", "yuyv422", 0);
  if (camera.width > 0 && camera.height > 0)
    av_dict_set(&d, "video_size", (std::to_string(camera.width) + "x" + std::to_string(camera.height)).c_str(), 0);
  if (camera.fps > 0) av_dict_set(&d, "framerate", std::to_string(camera.fps).c_str(), 0);
  return AvDictionaryPtr(d);
}

bool is_rtsp_uri(const std::string& uri) { return uri.rfind("rtsp://", 0) == 0 || uri.rfind("rtsps://", 0) == 0; }

AvDictionaryPtr input_options(const std::string& uri, const InputConfig& options) {
  if (is_camera_uri(uri)) return camera_options(options.camera);
  AVDictionary* d = nullptr;
  if (is_rtsp_uri(uri) && options.rtsp_transport != RtspTransport::automatic)
    av_dict_set(&d, "rtsp_transport", options.rtsp_transport == RtspTransport::tcp ? "tcp" : "udp", 0);
  return AvDictionaryPtr(d);
}

namespace {

// A named pipe's read end until FFmpeg's input owns it (AvInputDeleter closes it then).
class FifoReadEnd {
 public:
  explicit FifoReadEnd(int fd = -1) : fd_(fd) {}
  FifoReadEnd(FifoReadEnd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FifoReadEnd& operator=(FifoReadEnd&&) = delete;
  ~FifoReadEnd() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool open() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  // Hands the descriptor to the input that now reads it.
  void give_to(AVFormatContext* input) { input->opaque = reinterpret_cast<void*>(std::intptr_t{std::exchange(fd_, -1)} + 1); }

 private:
  int fd_;
};

// A named pipe blocks its reader's open() until a writer comes, and no FFmpeg interrupt can
// end that wait. So wait here instead, for input.timeout_ms or the stop flag: a non-blocking
// read end opens at once and polls readable when the writer's first bytes arrive. FFmpeg
// then reads that same descriptor (pipe:N): reopening the path would block again once a
// quick writer had written everything and gone.
FifoReadEnd wait_for_fifo_writer(const std::string& path, int timeout_ms, IoDeadline& deadline) {
  if (!is_named_pipe(path)) return FifoReadEnd();
  const double give_up = steady_seconds() + timeout_ms / 1e3;
  FifoReadEnd read_end(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  const int fd = read_end.fd();
  if (fd < 0) throw InputError(fmt::format("cannot open input '{}': {}", path, std::strerror(errno)));
  while (!deadline.stopped()) {
    pollfd ready{fd, POLLIN, 0};
    // The descriptor stays non-blocking: FFmpeg then retries an empty read every
    // millisecond and asks its interrupt callback in between, so a stalled writer cannot
    // hold a read past the reader's deadline.
    if (::poll(&ready, 1, 50) > 0 && (ready.revents & POLLIN)) return read_end;
    if (steady_seconds() > give_up)
      throw InputError(fmt::format("input '{}' is a named pipe and nothing wrote to it within {:.1f} s "
                                   "(input.timeout_ms)", path, timeout_ms / 1e3));
  }
  throw InputError("stopped while waiting for a writer on '" + path + "'");
}

}  // namespace

bool is_network_uri(const std::string& uri) {
  return uri.find("://") != std::string::npos && uri.rfind("file:", 0) != 0;
}

bool is_named_pipe(const std::string& uri) {
  std::error_code ignored;
  return std::filesystem::is_fifo(uri, ignored);
}

AvInputPtr open_input(const std::string& uri, const InputConfig& open_options, IoDeadline& deadline, double timeout_s) {
  const AVInputFormat* format = nullptr;
  AvDictionaryPtr options = input_options(uri, open_options);
  if (is_camera_uri(uri)) {
    avdevice_register_all();
    format = av_find_input_format("v4l2");
    if (!format) throw InputError("camera '" + uri + "': this FFmpeg has no V4L2 input (libavdevice without v4l2)");
    if (!std::filesystem::exists(uri))
      throw InputError("camera '" + uri + "' not found (no such device; is a camera connected? see ls /dev/video*)");
  }
  std::error_code size_error;
  if (std::filesystem::is_regular_file(uri, size_error) && std::filesystem::file_size(uri, size_error) == 0)
    throw InputError("input '" + uri + "' is an empty file");
  FifoReadEnd fifo = wait_for_fifo_writer(uri, open_options.timeout_ms, deadline);
  const std::string url = fifo.open() ? "pipe:" + std::to_string(fifo.fd()) : uri;
  AVFormatContext* raw = avformat_alloc_context();
  if (!raw) throw std::bad_alloc();
  raw->interrupt_callback = deadline.callback();
  deadline.clear();
  AVDictionary* opts = options.release();
  deadline.arm(timeout_s);
  const int opened = avformat_open_input(&raw, url.c_str(), format, &opts);
  AvDictionaryPtr unused(opts);
  if (opened < 0 && deadline.fired())
    throw InputError(fmt::format("input '{}': no data within {:.1f} s", redacted_uri(uri), timeout_s));
  AV_CHECK_AS(InputError, opened, (is_camera_uri(uri) ? "camera '" : "cannot open input '") + redacted_uri(uri) + "'");
  AvInputPtr input(raw);
  if (fifo.open()) fifo.give_to(input.get());
  deadline.arm(timeout_s);
  AV_CHECK_AS(InputError, avformat_find_stream_info(input.get(), nullptr),
              "cannot read stream info of '" + redacted_uri(uri) + "'");
  deadline.arm(0);
  return input;
}

}  // namespace vidpipe
