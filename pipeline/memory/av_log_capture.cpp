#include "memory/av_log_capture.hpp"

extern "C" {
#include <libavutil/log.h>
}

#include <spdlog/spdlog.h>

#include <atomic>
#include <cstdio>
#include <mutex>

#include "base/redact.hpp"

namespace vidpipe {
namespace {

// FFmpeg has one process-wide log callback; the capture is per thread, so that another
// input's decoder logging at the same time still prints as usual.
thread_local AvLogCapture* active_capture = nullptr;

std::atomic<bool> routed{false}, routed_verbose{false};

std::string formatted(void* avcl, int level, const char* format, va_list args) {
  char line[1024];
  int print_prefix = 0;  // no "[h264_nvenc @ 0x...]": the caller names the component itself
  av_log_format_line2(avcl, level, format, args, line, sizeof line, &print_prefix);
  std::string text(line);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// The component a line came from ("h264", "tcp"), as FFmpeg's prefix names it.
std::string component(void* avcl) {
  if (!avcl) return "ffmpeg";
  const AVClass* cls = *static_cast<AVClass**>(avcl);
  return cls && cls->item_name ? cls->item_name(avcl) : "ffmpeg";
}

void log_line(void* avcl, int level, const char* format, va_list args) {
  if (active_capture) {
    if (level > AV_LOG_WARNING) return;
    if (std::string text = formatted(avcl, level, format, args); !text.empty()) active_capture->add(text);
    return;
  }
  if (!routed) return av_log_default_callback(avcl, level, format, args);
  if (level > av_log_get_level()) return;
  const std::string text = redacted_text(formatted(avcl, level, format, args));
  if (text.empty()) return;
  if (routed_verbose)
    spdlog::info("[{}] {}", component(avcl), text);
  else
    spdlog::debug("[{}] {}", component(avcl), text);
}

// Called from FFmpeg's C code, on its threads: an exception must not cross it (that is
// std::terminate). A line that cannot be kept (out of memory under ulimit -v) is dropped.
void capturing_callback(void* avcl, int level, const char* format, va_list args) noexcept {
  try {
    log_line(avcl, level, format, args);
  } catch (...) {
  }
}

void install_callback() {
  static std::once_flag installed;
  std::call_once(installed, [] { av_log_set_callback(capturing_callback); });
}

}  // namespace

void route_ffmpeg_log(bool verbose) {
  routed_verbose = verbose;
  routed = true;
  install_callback();
}

AvLogCapture::AvLogCapture() : outer_(active_capture) {
  install_callback();
  active_capture = this;
}

AvLogCapture::~AvLogCapture() { active_capture = outer_; }

}  // namespace vidpipe
