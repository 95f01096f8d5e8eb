// FFmpeg's messages from one thread, kept instead of printed while an AvLogCapture lives:
// a probe that is expected to fail (NVENC on a machine without one) gives its reason to the
// note that explains the fallback instead of printing a line of its own.
#pragma once
#include <string>

namespace vidpipe {

// Where FFmpeg's own lines go when no capture is active: through vidpipe's log, with every
// URL in them redacted (FFmpeg names a camera's URL, password and all, in its connection
// errors) and the "[h264 @ 0x55...]" address left out. vidpipe says in its own words what
// failed and counts decode errors, so without `verbose` (-v) they are debug lines, hidden;
// with it, info lines. Call once, before any FFmpeg call.
void route_ffmpeg_log(bool verbose);

class AvLogCapture {
 public:
  AvLogCapture();
  ~AvLogCapture();
  AvLogCapture(const AvLogCapture&) = delete;
  AvLogCapture& operator=(const AvLogCapture&) = delete;

  // Warnings and errors logged on this thread since construction, joined by "; ".
  const std::string& text() const { return text_; }
  // Called by the log callback for each captured line.
  void add(const std::string& line) { text_ += (text_.empty() ? "" : "; ") + line; }

 private:
  std::string text_;
  AvLogCapture* outer_;
};

}  // namespace vidpipe
