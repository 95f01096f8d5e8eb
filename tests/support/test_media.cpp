#include "test_media.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "source/video_reader.hpp"

namespace vidpipe::test {

const std::string& scratch_dir() {
  static const std::string dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("vidpipe-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  return dir;
}

int run_command(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string source_dir() {
  const char* env = std::getenv("VIDPIPE_SOURCE_DIR");
  return env ? env : VIDPIPE_SOURCE_DIR;
}

bool ffmpeg_has_encoder(const std::string& encoder) {
  return run_command("ffmpeg -hide_banner -h encoder=" + encoder + " 2>/dev/null | grep -q 'Encoder " + encoder +
                     "'") == 0;
}

std::string make_clip(const std::string& name, int width, int height, int frames,
                      const std::string& codec_args) {
  const std::string path = scratch_dir() + "/" + name;
  if (std::filesystem::exists(path)) return path;
  const std::string cmd = "ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=" + std::to_string(width) + "x" +
                          std::to_string(height) + ":rate=30 -frames:v " + std::to_string(frames) + " " +
                          codec_args + " '" + path + "' 2>/dev/null";
  if (run_command(cmd) != 0) return "";
  return path;
}

ReaderOptions pageable_reader(const std::string& uri, int threads) {
  ReaderOptions ro;
  ro.uri = uri;
  ro.memory = HostMemory::pageable;
  ro.reader.threads = threads;
  return ro;
}

DecodedVideo decode_all(const std::string& path) {
  VideoReader reader(pageable_reader(path, 1));
  DecodedVideo out;
  const YuvLayout& l = reader.layout();
  out.width = l.width;
  out.height = l.height;
  while (auto f = reader.next()) {
    std::vector<std::uint8_t> planes;
    const std::uint8_t* base = f->data();
    auto copy_plane = [&](std::size_t offset, int pitch, int w, int h, int step) {
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) planes.push_back(base[offset + static_cast<std::size_t>(y) * pitch + x * step]);
    };
    copy_plane(l.offset[0], l.pitch[0], l.width, l.height, 1);
    if (l.nv12) {
      copy_plane(l.offset[1], l.pitch[1], l.chroma_width(), l.chroma_height(), 2);
      copy_plane(l.offset[1] + 1, l.pitch[1], l.chroma_width(), l.chroma_height(), 2);
    } else {
      copy_plane(l.offset[1], l.pitch[1], l.chroma_width(), l.chroma_height(), 1);
      copy_plane(l.offset[2], l.pitch[2], l.chroma_width(), l.chroma_height(), 1);
    }
    out.frames.push_back(std::move(planes));
  }
  return out;
}

double psnr(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  if (a.size() != b.size() || a.empty()) throw std::invalid_argument("psnr: sizes differ");
  double se = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = double(a[i]) - b[i];
    se += d * d;
  }
  if (se == 0) return 100.0;
  return 10 * std::log10(255.0 * 255.0 / (se / a.size()));
}

}  // namespace vidpipe::test
