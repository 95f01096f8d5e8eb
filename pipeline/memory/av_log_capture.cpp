#include "memory/av_log_capture.hpp"

extern "C" {
#include <libavutil/log.h>
}

#include <cstdio>
#include <mutex>

namespace vidpipe {
namespace {

// FFmpeg has one process-wide log callback; the capture is per thread, so that another
// input's decoder logging at the same time still prints as usual.
thread_local AvLogCapture* active_capture = nullptr;

void capturing_callback(void* avcl, int level, const char* format, va_list args) {
  if (!active_capture) return av_log_default_callback(avcl, level, format, args);
  if (level > AV_LOG_WARNING) return;
  char line[1024];
  int print_prefix = 0;  // no "[h264_nvenc @ 0x...]": the note names the encoder itself
  av_log_format_line2(avcl, level, format, args, line, sizeof line, &print_prefix);
  std::string text(line);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (!text.empty()) active_capture->add(text);
}

}  // namespace

AvLogCapture::AvLogCapture() : outer_(active_capture) {
  static std::once_flag installed;
  std::call_once(installed, [] { av_log_set_callback(capturing_callback); });
  active_capture = this;
}

AvLogCapture::~AvLogCapture() { active_capture = outer_; }

}  // namespace vidpipe
