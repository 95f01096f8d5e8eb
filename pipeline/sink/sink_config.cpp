#include "sink/sink_config.hpp"

#include "config/keys.hpp"

#include <unistd.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>

#include <cstdint>
#include <functional>

#include <filesystem>
#include <set>
#include <string_view>
#include <string>

namespace vidpipe {

void declare_keys(Keys<SinkConfig>& k) {
  k.choice("kind", &SinkConfig::kind,
           {{"encode", SinkKind::encode}, {"stream", SinkKind::stream}, {"display", SinkKind::display},
            {"null", SinkKind::null}},
           "`encode` writes a video file; `stream` sends MPEG-TS to `sink.path` (`udp://host:port`, or "
           "`tcp://host:port` to a listening viewer, or `tcp://0.0.0.0:port?listen=1` to wait for one), so "
           "a headless GPU server can be watched with `ffplay udp://@:port` or VLC; `display` opens a "
           "window (OpenCV highgui; keys: q quits, s switches sync/async copies, space pauses; not in "
           "builds without highgui, such as the GPU machine's); `null` drops frames (for measuring the "
           "pipeline alone).");
  k.text("path", &SinkConfig::path, "path or URL",
         "output file; the container follows the extension (`.mp4`, `.mkv`, `.ts`). Written as "
         "`<path>.<pid>.part` and renamed when complete; a path that is one of the inputs is refused. For "
         "`stream`, the URL.");
  k.text("codec", &SinkConfig::codec, "`auto` or an FFmpeg encoder name",
         "`auto` tries `h264_nvenc` and falls back to `libx264` with a note.");
  // The preset goes to x264 as it is: a checked word, not an enum of vidpipe's.
  k.choice("preset", &SinkConfig::preset,
           {{"ultrafast", "ultrafast"}, {"superfast", "superfast"}, {"veryfast", "veryfast"}, {"faster", "faster"},
            {"fast", "fast"}, {"medium", "medium"}, {"slow", "slow"}, {"slower", "slower"}, {"veryslow", "veryslow"}},
           "libx264 speed/size trade-off.");
  k.integer("crf", &SinkConfig::crf, 0, 51, "libx264 constant rate factor (lower: better quality, bigger file).");
  k.integer("threads", &SinkConfig::threads, 0, 64,
            "encoder threads; 0 lets the encoder choose. With several threads x264's output can differ by a "
            "few codes between runs of the same input (its frame threads race); 1 makes it repeatable.");
  k.integer("gop", &SinkConfig::gop, 0, 100000,
            "frames from one keyframe to the next (the encoder may add one at a scene cut). 0: two seconds of "
            "the input, one for `stream`, so a player seeks or a viewer joins in steps that short; longer "
            "GOPs make smaller files and encode a little faster (ffmpeg's own libx264 default is 250).");
  k.choice("audio", &SinkConfig::audio, {{"copy", SinkAudio::copy}, {"none", SinkAudio::none}},
           "`copy` puts the input file's audio into the output (encode and stream sinks) on the input's own "
           "clock, so it stays in sync with the video: the packets as they are where the container takes the "
           "codec, re-encoded to AAC where it does not. Cut at the video's end; a looped input's audio is "
           "copied once; not done for live inputs, `input.preload` or an input `input.stagger` starts part way in. "
           "`none`: video only.");
  k.text("pixel_format", &SinkConfig::pixel_format, "an FFmpeg pixel format name",
         "what the encoder writes (`yuv420p`, `yuv422p`, `yuv444p`, `yuv420p10le`, ... as the encoder takes "
         "them). The GPU stage works in 8-bit 4:2:0 (10-bit and 4:4:4 input is narrowed to it on the GPU), and "
         "this converts its result on the sink thread: for players and pipelines that need the format; it "
         "does not bring back the precision or chroma the narrowing left out.");
  k.integer("width", &SinkConfig::width, 0, 16384,
            "output width; 0 keeps the input's (or follows `sink.height` at the input's aspect). The frame is "
            "scaled on the GPU after the overlay and before the download, so a 1080p output of 4K input "
            "downloads and encodes a quarter of the pixels. Rounded down to even.");
  k.integer("height", &SinkConfig::height, 0, 16384,
            "output height; 0 keeps the input's (or follows `sink.width` at the input's aspect). Rounded down "
            "to even.");
}

std::string sink_path_for(const std::string& path, int input, int inputs) {
  if (inputs == 1 || path.empty()) return path;
  if (path.find("://") != std::string::npos) {
    const auto colon = path.rfind(':');
    const auto end = path.find_first_of("/?", colon);
    const int port = std::stoi(path.substr(colon + 1, end - colon - 1));
    return path.substr(0, colon + 1) + std::to_string(port + input) + (end == std::string::npos ? "" : path.substr(end));
  }
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "-" + std::to_string(input) + p.extension().string())).string();
}

std::string pixel_format_problem(const SinkConfig& sink) {
  if (av_get_pix_fmt(sink.pixel_format.c_str()) != AV_PIX_FMT_NONE) return "";
  return "'" + sink.pixel_format + "' is not a pixel format FFmpeg knows (e.g. yuv420p, yuv444p, yuv420p10le)";
}

std::string container_problem(const SinkConfig& sink) {
  if (sink.kind != SinkKind::encode) return "";
  const AVOutputFormat* format = av_guess_format(nullptr, sink.path.c_str(), nullptr);
  const std::string extension = std::filesystem::path(sink.path).extension().string();
  if (!format)
    return "'" + sink.path + "': no container is known by the extension '" + extension + "'; use .mp4, .mkv, .mov or .ts";
  const bool hevc = sink.codec.find("hevc") != std::string::npos || sink.codec.find("265") != std::string::npos;
  // A negative answer is "cannot tell" (MPEG-TS keeps no codec table: read as "cannot", it
  // refused every .ts output); for those the muxers known to carry H.264 and HEVC are named.
  const int answer = avformat_query_codec(format, hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264, FF_COMPLIANCE_NORMAL);
  static const std::set<std::string_view> carry_when_unsure = {"mpegts", "flv", "nut", "h264", "hevc"};
  if (answer == 0 || (answer < 0 && !carry_when_unsure.contains(format->name)))
    return "'" + sink.path + "': a " + format->name + " file cannot hold " + (hevc ? "HEVC" : "H.264") +
           " video; use .mp4, .mkv, .mov or .ts";
  return "";
}

}  // namespace vidpipe
