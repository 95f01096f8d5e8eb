#include "probe_streams.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>

#include <cmath>

#include "config/config.hpp"
#include "source/input_open.hpp"

namespace vidpipe {
namespace {

nlohmann::json seconds_or_null(std::int64_t value, AVRational time_base) {
  if (value == AV_NOPTS_VALUE || value <= 0) return nullptr;
  return value * av_q2d(time_base);
}

const char* name_or(const char* name, const char* fallback) { return name ? name : fallback; }

// R'G'B' sources have no matrix: "bt601 limited" for them would be made up.
nlohmann::json video_colour(const AVCodecParameters& par) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(par.format));
  if (d && (d->flags & AV_PIX_FMT_FLAG_RGB)) return {{"model", "R'G'B'"}};
  return {{"model", "Y'CbCr"},
          {"matrix", name_or(av_color_space_name(par.color_space), "unknown")},
          {"range", name_or(av_color_range_name(par.color_range), "unknown")},
          {"primaries", name_or(av_color_primaries_name(par.color_primaries), "unknown")},
          {"transfer", name_or(av_color_transfer_name(par.color_trc), "unknown")}};
}

void add_video(nlohmann::json& s, const AVFormatContext& input, const AVStream& stream) {
  const AVCodecParameters& par = *stream.codecpar;
  s["width"] = par.width;
  s["height"] = par.height;
  s["pixel_format"] = name_or(av_get_pix_fmt_name(static_cast<AVPixelFormat>(par.format)), "unknown");
  const AVRational rate = stream.avg_frame_rate.num > 0 ? stream.avg_frame_rate : stream.r_frame_rate;
  s["fps"] = rate.num > 0 && rate.den > 0 ? nlohmann::json(av_q2d(rate)) : nullptr;
  s["frames"] = stream.nb_frames > 0 ? nlohmann::json(stream.nb_frames) : nullptr;
  const nlohmann::json duration = seconds_or_null(stream.duration, stream.time_base).is_null() && input.duration > 0
                                      ? nlohmann::json(double(input.duration) / AV_TIME_BASE)
                                      : seconds_or_null(stream.duration, stream.time_base);
  s["frames_estimated"] = s["frames"].is_null() && !s["fps"].is_null() && !duration.is_null()
                              ? nlohmann::json(std::llround(duration.get<double>() * s["fps"].get<double>()))
                              : nullptr;
  s["colour"] = video_colour(par);
  const auto* matrix =
      reinterpret_cast<const std::int32_t*>(av_stream_get_side_data(&stream, AV_PKT_DATA_DISPLAYMATRIX, nullptr));
  // As ffprobe gives it: the display matrix's angle, counter-clockwise.
  s["rotation"] = matrix ? std::lround(av_display_rotation_get(matrix)) : 0;
  s["field_order"] = par.field_order == AV_FIELD_PROGRESSIVE ? "progressive"
                     : par.field_order == AV_FIELD_UNKNOWN   ? "unknown"
                                                             : "interlaced";
  if (par.sample_aspect_ratio.num > 0 && par.sample_aspect_ratio.den > 0)
    s["sample_aspect"] = fmt::format("{}:{}", par.sample_aspect_ratio.num, par.sample_aspect_ratio.den);
}

void add_audio(nlohmann::json& s, const AVCodecParameters& par) {
  char layout[64] = "unknown";
  av_channel_layout_describe(&par.ch_layout, layout, sizeof layout);
  s["sample_rate"] = par.sample_rate;
  s["channels"] = par.ch_layout.nb_channels;
  s["channel_layout"] = layout;
  s["sample_format"] = name_or(av_get_sample_fmt_name(static_cast<AVSampleFormat>(par.format)), "unknown");
}

nlohmann::json stream_json(const AVFormatContext& input, const AVStream& stream) {
  const AVCodecParameters& par = *stream.codecpar;
  nlohmann::json s{{"index", stream.index},
                   {"type", name_or(av_get_media_type_string(par.codec_type), "unknown")},
                   {"codec", avcodec_get_name(par.codec_id)},
                   {"profile", name_or(avcodec_profile_name(par.codec_id, par.profile), "")},
                   {"bit_rate", par.bit_rate > 0 ? nlohmann::json(par.bit_rate) : nullptr},
                   {"duration_s", seconds_or_null(stream.duration, stream.time_base)},
                   {"default", (stream.disposition & AV_DISPOSITION_DEFAULT) != 0}};
  // "und" (undetermined) is what muxers write when nobody said: no language.
  if (const AVDictionaryEntry* language = av_dict_get(stream.metadata, "language", nullptr, 0);
      language && std::string(language->value) != "und")
    s["language"] = language->value;
  if (par.codec_type == AVMEDIA_TYPE_VIDEO) add_video(s, input, stream);
  if (par.codec_type == AVMEDIA_TYPE_AUDIO) add_audio(s, par);
  return s;
}

std::string duration_text(const nlohmann::json& seconds) {
  if (seconds.is_null()) return "duration unknown";
  const double s = seconds.get<double>();
  const auto whole = static_cast<std::int64_t>(s);
  return fmt::format("duration {:02}:{:02}:{:06.3f}", whole / 3600, whole / 60 % 60, s - double(whole / 60 * 60));
}

std::string frames_text(const nlohmann::json& s) {
  if (!s["frames"].is_null()) return fmt::format("{} frames", s["frames"].get<std::int64_t>());
  if (!s["frames_estimated"].is_null())
    return fmt::format("frames unknown (the container does not say; about {} from duration and rate)",
                       s["frames_estimated"].get<std::int64_t>());
  return "frames unknown";
}

std::string video_text(const nlohmann::json& s) {
  std::string t = fmt::format(", {}x{}, {}", s["width"].get<int>(), s["height"].get<int>(),
                              s["pixel_format"].get<std::string>());
  t += s["fps"].is_null() ? ", rate unknown" : fmt::format(", {:.5g} fps", s["fps"].get<double>());
  t += ", " + frames_text(s);
  const nlohmann::json& c = s["colour"];
  if (c["model"] == "R'G'B'")
    t += ", R'G'B' (no matrix)";
  else if (c["matrix"] == "unknown" && c["range"] == "unknown")
    t += ", Y'CbCr (colour not tagged)";
  else
    t += fmt::format(", Y'CbCr {} {}", c["matrix"].get<std::string>(), c["range"].get<std::string>());
  if (s["rotation"].get<int>() != 0) t += fmt::format(", rotation {}", s["rotation"].get<int>());
  if (s["field_order"] != "progressive") t += ", " + s["field_order"].get<std::string>();
  if (s.contains("sample_aspect") && s["sample_aspect"] != "1:1") t += ", SAR " + s["sample_aspect"].get<std::string>();
  return t;
}

std::string audio_text(const nlohmann::json& s) {
  return fmt::format(", {} Hz, {}, {}", s["sample_rate"].get<int>(), s["channel_layout"].get<std::string>(),
                     s["sample_format"].get<std::string>());
}

}  // namespace

std::string streams_text(const nlohmann::json& probed) {
  const nlohmann::json& f = probed["format"];
  std::string out = fmt::format("  container: {} ({}), {}", f["name"].get<std::string>(), f["long_name"].get<std::string>(),
                                duration_text(f["duration_s"]));
  if (!f["bit_rate"].is_null()) out += fmt::format(", {} kb/s", f["bit_rate"].get<std::int64_t>() / 1000);
  out += "\n";
  for (const nlohmann::json& s : probed["streams"]) {
    const bool read = probed["video_stream"] == s["index"];
    out += fmt::format("  stream #{} {}{}: {}", s["index"].get<int>(), s["type"].get<std::string>(),
                       read ? " (the one vidpipe reads)" : "", s["codec"].get<std::string>());
    if (!s["profile"].get<std::string>().empty()) out += " (" + s["profile"].get<std::string>() + ")";
    if (s["type"] == "video") out += video_text(s);
    if (s["type"] == "audio") out += audio_text(s);
    if (!s["bit_rate"].is_null()) out += fmt::format(", {} kb/s", s["bit_rate"].get<std::int64_t>() / 1000);
    if (s.contains("language")) out += " [" + s["language"].get<std::string>() + "]";
    out += "\n";
  }
  return out;
}

nlohmann::json probe_streams(const std::string& uri, const std::atomic<bool>* stop) {
  const std::atomic<bool> never{false};
  IoDeadline deadline(never, stop);
  InputConfig options;
  const AvInputPtr input = open_input(uri, options, deadline, options.timeout_ms / 1e3);
  const int best_video = av_find_best_stream(input.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  nlohmann::json probed{{"format",
                         {{"name", input->iformat->name},
                          {"long_name", name_or(input->iformat->long_name, "")},
                          {"duration_s", input->duration > 0 ? nlohmann::json(double(input->duration) / AV_TIME_BASE)
                                                             : nullptr},
                          {"bit_rate", input->bit_rate > 0 ? nlohmann::json(input->bit_rate) : nullptr},
                          {"streams", input->nb_streams}}},
                        {"streams", nlohmann::json::array()},
                        {"video_stream", best_video >= 0 ? nlohmann::json(best_video) : nullptr}};
  for (unsigned i = 0; i < input->nb_streams; ++i) probed["streams"].push_back(stream_json(*input, *input->streams[i]));
  return probed;
}

}  // namespace vidpipe
