// sink.kind encode: frames encoded with FFmpeg to a file, and the encoder behind the
// stream sink (stream_sink.cpp), which sends MPEG-TS to a
// udp:// or tcp:// URL. A file is written as <path>.<pid>.part and renamed when finished,
// so a half-written file never sits under the final name; on an error or an
// interrupt finish() still runs (destructor), so what reached the sink is always a
// playable file. A stream is tuned for a viewer: no lookahead, a keyframe a second.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
}

#include <spdlog/spdlog.h>

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <thread>

#include "memory/av_log_capture.hpp"
#include "memory/av_raii.hpp"
#include "base/errors.hpp"
#include "base/output_file.hpp"
#include "base/redact.hpp"
#include "sink/audio_copy.hpp"
#include "sink/sink.hpp"

namespace vidpipe {
namespace {

struct OutputContextDeleter {
  void operator()(AVFormatContext* oc) const {
    if (oc && oc->pb) avio_closep(&oc->pb);
    avformat_free_context(oc);
  }
};
using AvOutputPtr = std::unique_ptr<AVFormatContext, OutputContextDeleter>;

constexpr const char* stalled_viewer_us = "5000000";
// Two frames further apart than this are a broken clock, not a pause in the video.
constexpr double clock_break_s = 60;

class EncodeSink final : public Sink {
 public:
  EncodeSink(const SinkOptions& options, bool streaming)
      : o_(options.config),
        out_(options),
        streaming_(streaming),
        // A FIFO or device (/dev/null) is written in place: renamed over or removed, as root
        // the device itself would go.
        in_place_(streaming_ || is_special_file(o_.path)),
        temp_path_(in_place_ ? o_.path : temporary_path_for(o_.path)),
        // A stream URL may carry a password or a token: messages show it redacted.
        shown_path_(redacted_uri(o_.path)),
        shown_temp_(redacted_uri(temp_path_)),
        packet_(make_packet()) {
    const SinkConfig& o = o_;
    // Held until FFmpeg's own write end is open, so a reader already there never sees an end.
    UniqueFd fifo_writer = streaming_ ? UniqueFd() : open_fifo_writer(o.path, "output");
    const AVOutputFormat* format =
        streaming_ ? av_guess_format("mpegts", nullptr, nullptr) : av_guess_format(nullptr, o.path.c_str(), nullptr);
    if (!format)
      throw ConfigError("sink.path: cannot tell the container from the name '" + shown_path_ + "' (use .mp4, .mkv, .ts)");
    AVFormatContext* raw = nullptr;
    AV_CHECK_AS(OutputError, avformat_alloc_output_context2(&raw, format, nullptr, temp_path_.c_str()),
                "cannot create output '" + shown_path_ + "'");
    output_.reset(raw);
    open_encoder();
    AVStream* stream = avformat_new_stream(output_.get(), nullptr);
    if (!stream) throw std::bad_alloc();
    stream->time_base = encoder_->time_base;
    stream->avg_frame_rate = encoder_->framerate;
    stream->sample_aspect_ratio = encoder_->sample_aspect_ratio;
    AV_CHECK_AS(OutputError, avcodec_parameters_from_context(stream->codecpar, encoder_.get()),
                "'" + shown_path_ + "': encoder parameters");
    open_audio(options);
    AVDictionary* raw_opts = nullptr;
    // Seven TS packets per datagram: what receivers and middleboxes expect.
    if (o.path.rfind("udp://", 0) == 0) av_dict_set(&raw_opts, "pkt_size", "1316", 0);
    // A TCP viewer that stops reading would block the sink for ever once the socket's buffer
    // is full: a write that waits this long ends the run instead (exit 3, output error).
    if (o.path.rfind("tcp://", 0) == 0) av_dict_set(&raw_opts, "rw_timeout", stalled_viewer_us, 0);
    const int opened = avio_open2(&output_->pb, temp_path_.c_str(), AVIO_FLAG_WRITE, nullptr, &raw_opts);
    AvDictionaryPtr unused_options(raw_opts);  // what avio_open2 left over
    AV_CHECK_AS(OutputError, opened, (streaming_ ? "cannot open stream '" : "cannot write output '") + shown_temp_ + "'");
    if (const int header = avformat_write_header(output_.get(), nullptr); header < 0) {
      discard_partial();
      throw OutputError("'" + shown_path_ + "': cannot write header: " + av_error_string(header));
    }
    open_ = true;
  }

  ~EncodeSink() override {
    try {
      finish();
    } catch (const std::exception& e) {
      spdlog::error("{}", e.what());
    }
  }

  void write(const OutputFrame& out) override {
    AvFramePtr frame = make_frame();
    frame->buf[0] = av_buffer_ref(out.buffer);  // the encoder may hold it without a copy
    if (!frame->buf[0]) throw std::bad_alloc();
    for (int i = 0; i < (out_.layout.nv12 ? 2 : 3); ++i) {
      frame->data[i] = out.buffer->data + out_.layout.offset[i];
      frame->linesize[i] = out_.layout.pitch[i];
    }
    frame->extended_data = frame->data;
    frame->format = result_format();
    frame->width = encoder_->width;
    frame->height = encoder_->height;
    frame->pts = output_pts(out.stream_s);
    if (frame->format != encoder_->pix_fmt) frame = converted(*frame);
    if (const int sent = avcodec_send_frame(encoder_.get(), frame.get()); sent < 0) {
      encoder_failed_ = true;
      throw OutputError(fmt::format("'{}': encoding frame {}: {}", shown_path_, out.index, av_error_string(sent)));
    }
    drain();
    video_end_s_ = std::max(video_end_s_, out.stream_s + 1 / (out_.fps > 0 ? out_.fps : 30.0));
    with_audio([&] { audio_->write_until(out.stream_s); });
  }

  void finish() override {
    if (!open_) return;
    open_ = false;
    // After a failed write the file misses bytes its index would point at: nothing of it is
    // kept (and removing it gives the space back on a full disk).
    if (write_failed_) return discard_partial();
    try {
      // An encoder that has failed (out of memory inside x264) is not flushed: that crashed
      // it. The frames it gave before are kept, finalised; those it held back are lost.
      if (!encoder_failed_) {
        AV_CHECK_AS(OutputError, avcodec_send_frame(encoder_.get(), nullptr), "'" + shown_path_ + "': flushing encoder");
        drain();
      }
      with_audio([&] { audio_->finish(video_end_s_); });
      AV_CHECK_AS(OutputError, av_write_trailer(output_.get()), "'" + shown_temp_ + "': cannot finalise");
      AV_CHECK_AS(OutputError, avio_closep(&output_->pb), "'" + shown_temp_ + "': cannot close");
    } catch (const OutputError&) {
      discard_partial();
      throw;
    }
    if (frames_ == 0 && !in_place_) {
      // A file with no frame in it plays nothing: nothing is left under the output's name.
      std::filesystem::remove(temp_path_);
      spdlog::warn("'{}' not written: no frame reached it", shown_path_);
      return;
    }
    if (in_place_) {
      spdlog::info("{} {} frames to {} ({})", streaming_ ? "streamed" : "wrote", frames_.load(), shown_path_,
                   encoder_->codec->name);
      return;
    }
    std::error_code ec;
    // Two runs may write the same output: each under its own temporary name, and the later
    // one to finish says that it replaces what the other left.
    const auto existing = std::filesystem::last_write_time(o_.path, ec);
    if (!ec && existing > started_)
      spdlog::warn("'{}' was written by another run while this one ran; replacing it with this run's", shown_path_);
    std::filesystem::rename(temp_path_, o_.path, ec);
    if (ec) {
      // Nothing is under the output's name (its folder deleted mid-run, say): the report
      // must not count frames that are not on disk.
      frames_ = 0;
      std::error_code ignored;
      std::filesystem::remove(temp_path_, ignored);
      throw OutputError("cannot rename '" + shown_temp_ + "' to '" + shown_path_ + "': " + ec.message());
    }
    spdlog::info("wrote {} ({} frames, {})", shown_path_, frames_.load(), encoder_->codec->name);
  }

  std::int64_t frames_written() const override { return frames_; }

  // Closes what is left of the file and removes it: the report then says 0 frames written,
  // which is what a user finds.
  void discard_partial() {
    if (output_ && output_->pb) avio_closep(&output_->pb);
    if (in_place_) return;
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
    spdlog::warn("'{}' not written ({} frames lost); its partial file '{}' was removed", shown_path_, frames_.load(), shown_temp_);
    frames_ = 0;
  }

  std::string describe() const override {
    const std::string name = encoder_->codec->name;
    const std::string preset = name == "libx264" ? " " + o_.preset : "";
    // thread_count 0 after opening: the encoder chose (x264: 1.5 frame threads per core).
    const std::string threads = o_.threads > 0 ? fmt::format(", {} threads", o_.threads)
                                               : fmt::format(", threads auto ({} cores)", std::thread::hardware_concurrency());
    return fmt::format("{}{}{}{}, {}x{} -> {}", streaming_ ? "stream mpegts " : "encode ", name, preset, threads,
                       encoder_->width, encoder_->height, shown_path_);
  }

 private:
  bool try_open(const AVCodec* codec) {
    encoder_.reset(avcodec_alloc_context3(codec));
    if (!encoder_) throw std::bad_alloc();
    const AVRational rate = av_d2q(out_.fps > 0 ? out_.fps : 30.0, 100000);
    // 4:2:0 encoders take even sizes only: an odd last column or row is left out.
    encoder_->width = out_.layout.width & ~1;
    encoder_->height = out_.layout.height & ~1;
    encoder_->pix_fmt = written_format();
    if (!takes(codec, encoder_->pix_fmt)) {
      open_error_ = fmt::format("it does not take {} (sink.pixel_format)", o_.pixel_format);
      encoder_.reset();
      return false;
    }
    // A fine clock rather than 1/fps: frames keep the input's own times (output_pts).
    encoder_->time_base = {1, 90000};
    encoder_->sample_aspect_ratio = av_d2q(out_.sample_aspect, 1000);
    encoder_->framerate = rate;
    encoder_->color_range = out_.colour.range == ColourRange::full ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
    encoder_->colorspace = out_.colour.standard == ColourStandard::bt709    ? AVCOL_SPC_BT709
                           : out_.colour.standard == ColourStandard::bt2020 ? AVCOL_SPC_BT2020_NCL
                                                                            : AVCOL_SPC_SMPTE170M;
    encoder_->thread_count = o_.threads;
    const int fps = std::max(1, static_cast<int>(rate.num / std::max(1, rate.den)));
    // A viewer joining a stream waits for the next keyframe: one a second.
    encoder_->gop_size = o_.gop > 0 ? o_.gop : streaming_ ? fps : fps * 2;
    if (output_->oformat->flags & AVFMT_GLOBALHEADER) encoder_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (std::string(codec->name) == "libx264") {
      av_opt_set(encoder_->priv_data, "preset", o_.preset.c_str(), 0);
      av_opt_set_int(encoder_->priv_data, "crf", o_.crf, 0);
      if (streaming_) av_opt_set(encoder_->priv_data, "tune", "zerolatency", 0);
    }
    // libx265 prints its banner and stats to stderr itself, past FFmpeg's log: it is told
    // FFmpeg's level (shown with -v only).
    if (std::string(codec->name) == "libx265")
      av_opt_set(encoder_->priv_data, "x265-params",
                 av_log_get_level() >= AV_LOG_INFO ? "log-level=info" : "log-level=error", 0);
    const int ret = avcodec_open2(encoder_.get(), codec, nullptr);
    if (ret < 0) {
      open_error_ = av_error_string(ret);
      encoder_.reset();
      return false;
    }
    return true;
  }

  // The GPU stage's result as downloaded: 8-bit 4:2:0, NV12 or three planes.
  AVPixelFormat result_format() const { return out_.layout.nv12 ? AV_PIX_FMT_NV12 : AV_PIX_FMT_YUV420P; }
  // What the encoder is given: the result itself unless sink.pixel_format asks for another.
  AVPixelFormat written_format() const {
    return o_.pixel_format == "yuv420p" ? result_format() : av_get_pix_fmt(o_.pixel_format.c_str());
  }
  static bool takes(const AVCodec* codec, AVPixelFormat format) {
    if (!codec->pix_fmts) return true;  // the encoder does not say: let it decide when it opens
    for (const AVPixelFormat* f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f)
      if (*f == format) return true;
    return false;
  }

  // sink.pixel_format: the result converted on this thread (swscale keeps the matrix and
  // range of Y'CbCr it converts between).
  AvFramePtr converted(const AVFrame& result) {
    AvFramePtr frame = make_frame();
    frame->format = encoder_->pix_fmt;
    frame->width = encoder_->width;
    frame->height = encoder_->height;
    AV_CHECK_AS(OutputError, av_frame_get_buffer(frame.get(), 0), "'" + shown_path_ + "': frame for sink.pixel_format");
    convert_.reset(sws_getCachedContext(convert_.release(), result.width, result.height,
                                        static_cast<AVPixelFormat>(result.format), frame->width, frame->height,
                                        encoder_->pix_fmt, SWS_BILINEAR, nullptr, nullptr, nullptr));
    if (!convert_) throw OutputError("'" + shown_path_ + "': cannot convert to sink.pixel_format " + o_.pixel_format);
    sws_scale(convert_.get(), result.data, result.linesize, 0, result.height, frame->data, frame->linesize);
    av_frame_copy_props(frame.get(), &result);
    return frame;
  }

  void open_audio(const SinkOptions& options) {
    if (o_.audio == SinkAudio::none || options.audio_from.empty()) return;
    try {
      audio_ = AudioCopy::open(options.audio_from, output_.get(), shown_path_);
    } catch (const OutputError& e) {
      throw OutputError("'" + shown_path_ + "': cannot carry the input's audio (" + e.what() +
                        "); sink.audio: none writes the video alone");
    }
  }

  // The audio must never cost the video: a failure ends the audio alone, with one line.
  template <class Step>
  void with_audio(Step step) {
    if (!audio_) return;
    try {
      step();
    } catch (const std::exception& e) {
      spdlog::error("'{}': the audio stops here, the video goes on: {}", shown_path_, e.what());
      audio_.reset();
    }
  }

  void open_encoder() {
    if (out_.layout.width < 2 || out_.layout.height < 2)
      throw OutputError(fmt::format("'{}': a {}x{} picture is too small to encode (4:2:0 needs at least 2x2)", shown_path_,
                                    out_.layout.width, out_.layout.height));
    if (o_.codec == "auto") {
      std::string reason = "this FFmpeg has no h264_nvenc";
      if (const AVCodec* nvenc = avcodec_find_encoder_by_name("h264_nvenc")) {
        // Its own log says why it failed (no libcuda, no NVENC engine on this GPU, too many
        // sessions): that goes into the note, not onto the terminal as a line of its own.
        AvLogCapture probe_log;
        if (try_open(nvenc)) return;
        reason = probe_log.text().empty() ? open_error_ : probe_log.text();
      }
      spdlog::info("NVENC not usable here ({}); encoding with libx264", reason);
      o_.codec = "libx264";
    }
    const AVCodec* codec = avcodec_find_encoder_by_name(o_.codec.c_str());
    if (!codec) throw ConfigError("sink.codec: no encoder named '" + o_.codec + "' in this FFmpeg");
    if (!try_open(codec)) {
      if (!takes(codec, written_format()))
        throw ConfigError("sink.pixel_format: " + o_.codec + " cannot encode " + o_.pixel_format);
      throw OutputError("'" + shown_path_ + "': cannot open encoder " + o_.codec + ": " + open_error_);
    }
  }

  // The input frame's own time, so variable frame rates and dropped frames stay as they
  // were. Where the input's clock goes back (a loop starts again, a live source
  // reconnects) the output carries on one frame after the last instead; so it does where
  // the clock leaps forward past any real gap (a damaged timestamp: a bit flip made one
  // 35,793 s, which the MP4 muxer then refused, losing the whole file).
  std::int64_t output_pts(double stream_s) {
    std::int64_t pts = std::llround((stream_s + pts_offset_s_) / av_q2d(encoder_->time_base));
    const double leap_s = last_pts_ == AV_NOPTS_VALUE ? 0 : (pts - last_pts_) * av_q2d(encoder_->time_base);
    if (last_pts_ != AV_NOPTS_VALUE && (pts <= last_pts_ || leap_s > clock_break_s)) {
      const std::int64_t frame_ticks = std::max<std::int64_t>(1, std::llround(1 / (out_.fps > 0 ? out_.fps : 30.0) /
                                                                              av_q2d(encoder_->time_base)));
      const std::int64_t resumed = last_pts_ + frame_ticks;
      pts_offset_s_ += (resumed - pts) * av_q2d(encoder_->time_base);
      pts = resumed;
    }
    return last_pts_ = pts;
  }

  void drain() {
    while (true) {
      const int ret = avcodec_receive_packet(encoder_.get(), packet_.get());
      if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
      if (ret < 0) {
        encoder_failed_ = true;
        throw OutputError("'" + shown_path_ + "': encoder error: " + av_error_string(ret));
      }
      av_packet_rescale_ts(packet_.get(), encoder_->time_base, output_->streams[0]->time_base);
      packet_->stream_index = 0;
      if (const int written = av_interleaved_write_frame(output_.get(), packet_.get()); written < 0) {
        write_failed_ = true;
        throw OutputError(fmt::format("'{}': cannot write '{}': {}", shown_path_, streaming_ ? shown_path_ : shown_temp_,
                                      av_error_string(written)));
      }
      ++frames_;  // a frame is written once its packet is in the file, not when it is sent
    }
  }

  SinkConfig o_;    // sink.*, with the codec resolved once opened
  SinkOptions out_; // what the frames are: size, rate, colour
  bool streaming_;
  bool in_place_;  // no temporary name: a stream, or a special file
  bool encoder_failed_ = false;  // a send or receive failed: never flushed
  std::string temp_path_;
  std::string shown_path_, shown_temp_;  // redacted, for messages
  AvOutputPtr output_;
  AvCodecContextPtr encoder_;
  AvPacketPtr packet_;
  std::string open_error_;
  std::unique_ptr<AudioCopy> audio_;  // sink.audio: copy, where the input has audio
  double video_end_s_ = 0;            // the last frame's end on the input's clock
  std::int64_t last_pts_ = AV_NOPTS_VALUE;
  double pts_offset_s_ = 0;  // added to the input's times once its clock went back
  std::atomic<std::int64_t> frames_{0};  // packets in the file; read live by the metrics endpoint
  bool open_ = false;
  bool write_failed_ = false;  // the file is missing data: finish() removes it
  SwsContextPtr convert_;      // sink.pixel_format, where it is not the result's own
  std::filesystem::file_time_type started_ = std::filesystem::file_time_type::clock::now();
};

}  // namespace

std::unique_ptr<Sink> make_encoder_sink(const SinkOptions& options, bool streaming) {
  return std::make_unique<EncodeSink>(options, streaming);
}

std::unique_ptr<Sink> make_file_sink(const SinkOptions& options) { return make_encoder_sink(options, false); }

}  // namespace vidpipe
