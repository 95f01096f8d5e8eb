// Any bytes as an input file, through demux and decode into the frame pool: the
// reader may reject them (InputError) or decode fewer frames, never crash or hang.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

extern "C" {
#include <libavutil/log.h>
}
#include <spdlog/spdlog.h>

#include "base/errors.hpp"
#include "source/video_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool quiet = [] {
    av_log_set_level(AV_LOG_QUIET);
    spdlog::set_level(spdlog::level::off);
    return true;
  }();
  (void)quiet;
  static const std::string path = "/tmp/vidpipe-fuzz-decode-" + std::to_string(getpid()) + ".bin";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  try {
    vidpipe::ReaderOptions ro;
    ro.uri = path;
    ro.memory = vidpipe::HostMemory::pageable;
    ro.reader.threads = 1;
    ro.reader.pool_wait_ms = 200;
    vidpipe::VideoReader reader(ro);
    for (int i = 0; i < 8 && reader.next(); ++i) {
    }
  } catch (const vidpipe::InputError&) {
  }
  return 0;
}
