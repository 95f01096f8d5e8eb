#include "logging.hpp"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

extern "C" {
#include <libavutil/log.h>
}

#include <cstdio>
#include <memory>
#include <mutex>

#include "memory/av_log_capture.hpp"
#include "metrics/progress.hpp"

namespace vidpipe {
namespace {

// spdlog's colour sink, except that a row holding the progress line (drawn with \r and no
// newline) is cleared first: else "wrote out.mp4" lands at the end of the bar.
class ProgressAwareSink final : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& message) override {
    if (take_progress_row()) std::fputs("\r\x1b[K", stderr);
    colour_->log(message);
  }
  void flush_() override { colour_->flush(); }
  void set_pattern_(const std::string& pattern) override { colour_->set_pattern(pattern); }
  void set_formatter_(std::unique_ptr<spdlog::formatter> formatter) override {
    colour_->set_formatter(std::move(formatter));
  }

 private:
  std::shared_ptr<spdlog::sinks::stderr_color_sink_st> colour_ = std::make_shared<spdlog::sinks::stderr_color_sink_st>();
};

}  // namespace

void set_up_logging(bool verbose, bool quiet) {
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("vidpipe", std::make_shared<ProgressAwareSink>()));
  if (quiet) spdlog::set_level(spdlog::level::warn);
  spdlog::set_pattern("[%H:%M:%S.%e] %^%l%$ %v");
  // FFmpeg's own chatter (x264 stats, codec banners, "[h264 @ 0x..] no frame!") would bury
  // the pipeline's lines: it goes through vidpipe's log, shown with -v.
  av_log_set_level(verbose ? AV_LOG_INFO : AV_LOG_ERROR);
  route_ffmpeg_log(verbose);
}

}  // namespace vidpipe
