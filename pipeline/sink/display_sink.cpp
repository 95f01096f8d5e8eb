// Shows the overlaid frames in an OpenCV highgui window, scaled to the window's size
// (swscale converts and scales in one pass straight from the frame's YUV planes).
// Keys: q or Esc quits cleanly, s switches sync/async copies, space pauses. All
// window calls happen on the sink thread: the window is made at the first frame.
#include <cstdlib>
#include <opencv2/highgui.hpp>
#include <opencv2/imgproc.hpp>

extern "C" {
#include <libswscale/swscale.h>
}

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>

#include "base/errors.hpp"
#include "memory/av_raii.hpp"
#include "sink/sink.hpp"

namespace vidpipe {
namespace {

constexpr int initial_max_width = 1280, initial_max_height = 720;

class DisplaySink final : public Sink {
 public:
  explicit DisplaySink(const SinkOptions& o) : o_(o) {
    if (!o.controls) throw std::logic_error("display sink needs LiveControls");
  }

  ~DisplaySink() override {
    if (window_open_) cv::destroyWindow(o_.title);
  }

  void write(const OutputFrame& frame) override {
    if (!window_open_) open_window();
    show(frame);
    handle_key(cv::waitKey(1));
    while (paused_ && !o_.controls->quit) {  // the pipeline backs up; live inputs drop frames
      show_label();
      handle_key(cv::waitKey(30));
    }
  }

  void finish() override {}
  std::string describe() const override { return "display window '" + o_.title + "'"; }

 private:
  void open_window() {
    const double fit = std::min({1.0, double(initial_max_width) / o_.layout.width,
                                 double(initial_max_height) / o_.layout.height});
    // No toolbar or status bar (Qt builds add them): the window is the picture.
    cv::namedWindow(o_.title, cv::WINDOW_NORMAL | cv::WINDOW_KEEPRATIO | cv::WINDOW_GUI_NORMAL);
    cv::resizeWindow(o_.title, std::max(1, int(o_.layout.width * fit)), std::max(1, int(o_.layout.height * fit)));
    window_open_ = true;
  }

  // The largest picture of the frame's aspect that fits the window as it is now.
  cv::Size window_size() const {
    const cv::Rect r = cv::getWindowImageRect(o_.title);
    if (r.width <= 0 || r.height <= 0) return {o_.layout.width, o_.layout.height};
    const double fit = std::min(double(r.width) / o_.layout.width, double(r.height) / o_.layout.height);
    return {std::max(2, int(o_.layout.width * fit)), std::max(2, int(o_.layout.height * fit))};
  }

  std::int64_t frames_written() const override { return shown_; }

  void show(const OutputFrame& frame) {
    ++shown_;
    const cv::Size size = window_size();
    image_.create(size, CV_8UC3);
    const AVPixelFormat src_format = o_.layout.nv12 ? AV_PIX_FMT_NV12 : AV_PIX_FMT_YUV420P;
    sws_.reset(sws_getCachedContext(sws_.release(), o_.layout.width, o_.layout.height, src_format, size.width,
                                    size.height, AV_PIX_FMT_BGR24, SWS_BILINEAR, nullptr, nullptr, nullptr));
    if (!sws_) throw OutputError("display: cannot convert frames for the window");
    const std::uint8_t* src[4] = {};
    int src_pitch[4] = {};
    for (int i = 0; i < (o_.layout.nv12 ? 2 : 3); ++i) {
      src[i] = frame.buffer->data + o_.layout.offset[i];
      src_pitch[i] = o_.layout.pitch[i];
    }
    std::uint8_t* dst[4] = {image_.data};
    int dst_pitch[4] = {static_cast<int>(image_.step)};
    sws_scale(sws_.get(), src, src_pitch, 0, o_.layout.height, dst, dst_pitch);
    show_label();
  }

  // The frame's own HUD (drawn on the GPU) has fps and copy-wait; this line says what
  // the keys do and which copy mode is running.
  void show_label() {
    if (image_.empty()) return;
    cv::Mat shown = image_.clone();
    const std::string label = std::string(o_.controls->sync ? "sync copies" : "async copies") +
                              (paused_ ? "  PAUSED" : "") + "   s: sync/async  space: pause  q: quit";
    const double scale = std::max(0.4, shown.rows / 900.0);
    const int baseline = shown.rows - int(12 * scale);
    cv::putText(shown, label, {int(10 * scale), baseline}, cv::FONT_HERSHEY_SIMPLEX, scale, {0, 0, 0},
                std::max(2, int(4 * scale)), cv::LINE_AA);
    cv::putText(shown, label, {int(10 * scale), baseline}, cv::FONT_HERSHEY_SIMPLEX, scale, {255, 255, 255},
                std::max(1, int(1.5 * scale)), cv::LINE_AA);
    cv::imshow(o_.title, shown);
  }

  void handle_key(int key) {
    if (key < 0) {
      // Closing the window with the mouse is a quit as well.
      if (cv::getWindowProperty(o_.title, cv::WND_PROP_VISIBLE) < 1) o_.controls->quit = true;
      return;
    }
    switch (key & 0xff) {
      case 'q': case 'Q': case 27:
        o_.controls->quit = true;
        paused_ = false;
        break;
      case 's': case 'S':
        ++o_.controls->mode_toggles;
        break;
      case ' ':
        paused_ = !paused_;
        spdlog::info("display: {}", paused_ ? "paused" : "resumed");
        break;
      default:
        break;
    }
  }

  std::atomic<std::int64_t> shown_{0};  // frames put in the window; read live by the metrics endpoint
  SinkOptions o_;
  bool window_open_ = false;
  bool paused_ = false;
  cv::Mat image_;
  SwsContextPtr sws_;
};

}  // namespace

std::unique_ptr<Sink> make_display_sink(const SinkOptions& options) {
  // Qt aborts the process (exit 134, no report) when it finds no display server.
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!x11 || !*x11) && (!wayland || !*wayland))
    throw ConfigError("sink.kind: display needs a display server (DISPLAY and WAYLAND_DISPLAY are not set); "
                      "use sink.kind encode, stream or null here");
  return std::make_unique<DisplaySink>(options);
}

}  // namespace vidpipe
