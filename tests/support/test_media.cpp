#include "test_media.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "frame_pixels.hpp"
#include "memory/frame_layout.hpp"
#include "narrow/narrow_yuv_ref.hpp"
#include "sink/audio_transcode.hpp"
#include "source/video_reader.hpp"

extern "C" {
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>
}

namespace vidpipe::test {

namespace {

std::filesystem::path scratch_path() {
  return std::filesystem::temp_directory_path() / ("vidpipe-test-" + std::to_string(::getpid()));
}

// Removes this process's scratch folder when the test program ends, pass or fail.
class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(scratch_path(), ignored);
  }
};
const ::testing::Environment* const scratch_cleanup = ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

}  // namespace

const std::string& scratch_dir() {
  static const std::string dir = [] {
    std::filesystem::create_directories(scratch_path());
    return scratch_path().string();
  }();
  return dir;
}

int run_command(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

namespace {

// ffprobe's answer for `path`, a line each; `options` says what to show and how.
std::vector<std::string> ffprobe_lines(const std::string& options, const std::string& path) {
  const std::string listing = scratch_dir() + "/ffprobe.txt";
  if (run_command("ffprobe -v error " + options + " '" + path + "' > '" + listing + "'") != 0)
    throw std::runtime_error("ffprobe could not read " + path);
  std::ifstream in(listing);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

std::string video_field(const std::string& path, const std::string& field) {
  const auto lines = ffprobe_lines("-select_streams v:0 -show_entries stream=" + field + " -of default=nw=1:nk=1", path);
  return lines.empty() ? "" : lines.front();
}

std::vector<std::uint8_t> first_frame_rgb(const std::string& path) {
  const std::string raw = scratch_dir() + "/first-frame.rgb";
  if (run_command("ffmpeg -loglevel error -y -i '" + path + "' -frames:v 1 -pix_fmt rgb24 -f rawvideo '" + raw + "'") != 0)
    throw std::runtime_error("ffmpeg could not convert " + path);
  const std::string bytes = file_bytes(raw);
  return {bytes.begin(), bytes.end()};
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<double> frame_times(const std::string& path) {
  std::vector<double> times;
  for (std::string line : ffprobe_lines("-select_streams v:0 -show_entries frame=pts_time -of csv=p=0", path)) {
    while (!line.empty() && (line.back() == ',' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) times.push_back(std::stod(line));
  }
  std::sort(times.begin(), times.end());
  return times;
}

std::vector<int> keyframe_indices(const std::string& path) {
  std::vector<int> keyframes;
  int index = 0;
  for (const std::string& flags : ffprobe_lines("-select_streams v:0 -show_entries packet=flags -of csv=p=0", path)) {
    if (flags.find('K') != std::string::npos) keyframes.push_back(index);
    ++index;
  }
  return keyframes;
}

std::vector<StreamInfo> streams_of(const std::string& path) {
  std::vector<StreamInfo> streams;
  for (const std::string& line :
       ffprobe_lines("-show_entries stream=codec_type,codec_name,start_time,duration -of csv=p=0", path)) {
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string f; std::getline(row, f, ',');) fields.push_back(f);
    if (fields.size() < 4) continue;
    auto number = [](const std::string& s) { return s == "N/A" || s.empty() ? 0.0 : std::stod(s); };
    streams.push_back({fields[1], fields[0], number(fields[2]), number(fields[3])});
  }
  return streams;
}

// Decoded with the FFmpeg libraries rather than the ffmpeg program: the GPU machine's
// ffmpeg has too few muxers to write raw samples.
std::vector<std::int16_t> audio_samples(const std::string& path, int rate) {
  AVFormatContext* raw = nullptr;
  if (avformat_open_input(&raw, path.c_str(), nullptr, nullptr) < 0) throw std::runtime_error("cannot open " + path);
  AvInputPtr input(raw);
  if (avformat_find_stream_info(input.get(), nullptr) < 0) throw std::runtime_error("no stream info in " + path);
  const AVCodec* codec = nullptr;
  const int stream = av_find_best_stream(input.get(), AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
  if (stream < 0) throw std::runtime_error("no audio in " + path);
  AvCodecContextPtr decoder(avcodec_alloc_context3(codec));
  avcodec_parameters_to_context(decoder.get(), input->streams[stream]->codecpar);
  if (avcodec_open2(decoder.get(), codec, nullptr) < 0) throw std::runtime_error("cannot decode the audio of " + path);
  AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
  SwrContext* swr = nullptr;
  swr_alloc_set_opts2(&swr, &mono, AV_SAMPLE_FMT_S16, rate, &decoder->ch_layout, decoder->sample_fmt,
                      decoder->sample_rate, 0, nullptr);
  std::unique_ptr<SwrContext, SwrDeleter> resampler(swr);
  if (!swr || swr_init(swr) < 0) throw std::runtime_error("cannot resample the audio of " + path);
  std::vector<std::int16_t> samples;
  AvPacketPtr packet = make_packet();
  AvFramePtr frame = make_frame();
  auto drain = [&] {
    while (avcodec_receive_frame(decoder.get(), frame.get()) == 0) {
      std::vector<std::int16_t> out(swr_get_out_samples(swr, frame->nb_samples));
      std::uint8_t* dst = reinterpret_cast<std::uint8_t*>(out.data());
      const int got = swr_convert(swr, &dst, static_cast<int>(out.size()),
                                  const_cast<const std::uint8_t**>(frame->extended_data), frame->nb_samples);
      samples.insert(samples.end(), out.begin(), out.begin() + std::max(0, got));
    }
  };
  while (av_read_frame(input.get(), packet.get()) >= 0) {
    if (packet->stream_index == stream && avcodec_send_packet(decoder.get(), packet.get()) >= 0) drain();
    av_packet_unref(packet.get());
  }
  avcodec_send_packet(decoder.get(), nullptr);
  drain();
  return samples;
}

bool temporary_left(const std::string& out) {
  const std::filesystem::path p(out);
  const std::string stem = p.filename().string() + ".";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(p.parent_path().empty() ? "." : p.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(stem, 0) == 0 && name.size() > 5 && name.compare(name.size() - 5, 5, ".part") == 0) return true;
  }
  return false;
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
  // Wide frames (10-bit, 4:2:2, 4:4:4) as the GPU stage's first step narrows them.
  const YuvLayout& decoded = reader.layout();
  const YuvLayout l = narrowed_layout(decoded);
  out.width = l.width;
  out.height = l.height;
  while (auto f = reader.next()) {
    std::vector<std::uint8_t> planes;
    const std::vector<std::uint8_t> narrowed = narrowed_copy(f->data(), decoded);
    const std::uint8_t* base = decoded.narrow() ? f->data() : narrowed.data();
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

std::vector<std::uint8_t> narrowed_copy(const std::uint8_t* frame, const YuvLayout& l) {
  if (l.narrow()) return {};
  const YuvLayout to = narrowed_layout(l);
  std::vector<std::uint8_t> out(to.frame_bytes);
  reference::narrow_yuv(frame, l, out.data(), to);
  return out;
}

DecodedVideo ffmpeg_yuv420p(const std::string& path, int width, int height, const std::string& filters) {
  const std::string raw = scratch_dir() + "/ffmpeg-reference.yuv";
  const std::string vf = filters.empty() ? "" : " -vf '" + filters + "'";
  if (run_command("ffmpeg -loglevel error -y -i '" + path + "'" + vf + " -pix_fmt yuv420p -f rawvideo '" + raw + "'") != 0)
    throw std::runtime_error("ffmpeg could not convert " + path);
  DecodedVideo out{width, height, {}};
  const std::size_t frame_bytes =
      static_cast<std::size_t>(width) * height + 2 * static_cast<std::size_t>((width + 1) / 2) * ((height + 1) / 2);
  std::ifstream in(raw, std::ios::binary);
  for (std::vector<std::uint8_t> frame(frame_bytes); in.read(reinterpret_cast<char*>(frame.data()), frame_bytes);)
    out.frames.push_back(frame);
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
