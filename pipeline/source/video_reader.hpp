// Demux + decode with FFmpeg, straight into a FramePool: a custom get_buffer2 hands
// the decoder pool buffers, so decoded pixels land in (pinned) memory the GPU can
// DMA from with no extra host copy. Y'CbCr of any chroma layout and 8 to 16 bits goes in as
// decoded (the GPU stage narrows it); other formats (R'G'B', gray, paletted) are converted
// into a pool buffer with swscale.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memory/av_raii.hpp"
#include "base/clock.hpp"
#include "source/frame_colour.hpp"
#include "memory/frame_pool.hpp"
#include "source/loop_restart.hpp"
#include "source/segment_plan.hpp"
#include "common/image_types.hpp"
#include "source/input_open.hpp"
#include "source/input_config.hpp"
#include "source/reader_config.hpp"
#include "base/fault_injection.hpp"

struct SwsContext;

namespace vidpipe {

struct ReaderOptions {
  std::string uri;
  InputConfig input;    // the input.* section: loop, pacing, live timeouts, camera, RTSP
  ReaderConfig reader;  // the reader.* section: decoder, threads, pool size
  HostMemory memory = HostMemory::pinned;
  int in_flight = 8;    // frames the rest of the pipeline may hold at once
  // Live inputs (network, camera): no data for input.timeout_ms means the source is lost;
  // the reader reopens it as input.reconnect says.
  bool live = false;
  int cuda_device = 0;
  // The pinned pool fills in the background from the reader's start; true leaves its
  // start to the caller (pool().start_filling()), who has CUDA set-up of its own to do
  // first. A preload starts it anyway: it needs the buffers at once.
  bool defer_pool_filling = false;
  // Set by a split reader for each of its decoders (reader.decoders); inactive otherwise.
  SegmentPlan segments;
  // input.stagger: how far into the file (0 to 1 of its length) this input starts, so that
  // copies of one file are out of step as independent cameras are (reader_start.cpp).
  double start_fraction = 0;
  // Frames NVDEC keeps beyond the stream's own references; 0: in_flight + 2, at most 20.
  // (Past NVDEC's 32 surfaces FFmpeg cannot start it: the fallback test asks for that.)
  int nvdec_extra_frames = 0;
  // The run's stop flag (Ctrl-C, SIGTERM): heard while the input is still opening or
  // waiting to retry, before the pipeline's watcher exists.
  const std::atomic<bool>* cancel = nullptr;
  InjectedFault injected;  // reliability tests only: where to raise a stop (fault_injection.hpp)
  double timeout_s() const { return input.timeout_ms / 1e3; }
};

struct VideoInfo {
  std::string uri;
  std::string codec;
  std::string pixel_format;
  int width = 0;
  int height = 0;
  double fps = 30.0;
  std::int64_t frame_count = 0;  // 0 when the container does not say
  double duration_s = 0;         // 0 when unknown (live)
  bool is_still = false;
  FrameColour colour;            // from the container; frames may refine it
  std::string decoder = "cpu";   // what decodes: cpu, nvdec, cpu+nvdec (a split file) or "cpu (nvdec did not start)"
  int decoders = 1;              // how many decode it at once (reader.decoders, where it could be split)
  int decoder_threads = 1;       // host threads decoding (1 with NVDEC: it only parses)
  int preloaded = 0;             // frames held in memory and replayed (input.preload)
  double start_s = 0;            // input.stagger: how far into the file it starts (0: at its start)
  double open_s = 0;             // opening: demuxer, stream probe, decoder (an NVDEC session's start within)
  double nvdec_start_s = 0;      // of which starting the NVDEC session and its first frame
  // Clockwise quarter turns the display matrix asks for (a phone held upright or upside
  // down); the GPU stage turns the frames after the upload (rotate_yuv).
  int quarter_turns = 0;
  // The width of a stored pixel over its height (SAR): 1 for square pixels; a DVD's 16:11.
  double sample_aspect = 1.0;
  // The stream's field order as it says: interlaced (top or bottom field first) or not.
  enum class Fields { progressive, top_first, bottom_first } fields = Fields::progressive;
};

struct DecodedFrame {
  // Host frames: buf[0] is a pool buffer laid out as layout(). NVDEC frames: NV12 in
  // device memory, planes at data[0..1] with their own pitch.
  AvFramePtr frame;
  int source = 0;                // which input, when there are several
  std::int64_t index = 0;
  double decoded_at = 0.0;       // seconds on the pipeline clock
  double decode_ms = 0.0;
  double stream_s = 0.0;         // the frame's timestamp in its stream
  std::int64_t segment = 0;      // which segment of a split file (segment_plan.hpp) it came from
  FrameColour colour;
  const std::uint8_t* data() const { return frame->buf[0]->data; }
  bool on_device() const { return frame->format == AV_PIX_FMT_CUDA; }
};

class NvdecDecoder;
class SegmentFan;

class VideoReader {
 public:
  explicit VideoReader(const ReaderOptions& options);
  ~VideoReader();
  VideoReader(const VideoReader&) = delete;
  VideoReader& operator=(const VideoReader&) = delete;

  const VideoInfo& info() const { return info_; }
  const YuvLayout& layout() const { return layout_; }
  // input.loop: whether the next pass is fed on without draining the decoder (loop_restart.hpp).
  bool loops_by_feeding_on() const { return loop_feeds_on_; }
  FramePool& pool() { return *pool_; }
  const FramePool& pool() const { return *pool_; }
  // Starts the background filling of its pools (a split reader has one per decoder).
  void start_pool_filling();

  // The next frame in display order; nullopt at the end (or after request_stop()).
  // `clock_origin` is the steady-clock time that pipeline timestamps count from.
  std::optional<DecodedFrame> next();
  void set_clock_origin(double origin_seconds) { clock_origin_ = origin_seconds; }
  // Tags this reader's frames, when there are several inputs.
  void set_source(int source) { source_ = source; }
  // Thread-safe: makes next() return nullopt soon, unblocking a waiting decoder.
  void request_stop();
  std::int64_t decode_errors() const;
  std::int64_t converted_frames() const { return converted_frames_; }
  int reconnects() const { return reconnects_; }
  // A file split over decoders (reader.decoders): what each decoder took and its rate.
  std::vector<SegmentDealer::DecoderFigures> split_figures() const {
    return options_.segments.dealer ? options_.segments.dealer->figures() : std::vector<SegmentDealer::DecoderFigures>{};
  }
  // A split file's decoders' kinds, in decoder order (empty when it is not split).
  const std::vector<Decoder>& split_kinds() const { return split_kinds_; }
  // Between losing a live source and having it open again (for /readyz).
  bool reconnecting() const { return reconnecting_; }

 private:
  static int get_pool_buffer(AVCodecContext* ctx, AVFrame* frame, int flags);
  // Stops this reader's own decoding (not the other decoders of a split file).
  void stop_decoding();
  // This reader's stop or the run's (a signal heard before the watcher relays it): either
  // makes the interrupt callback cut FFmpeg's I/O short.
  bool stopping() const { return stop_ || deadline_.stopped(); }
  // Opens the input (retrying a live one that is not there yet) and finds its video stream.
  const AVCodec* open_stream();
  // Fills info_ and the pool's layout from the stream and the opened decoder.
  void describe_stream(const AVCodec* codec);
  void make_pool();
  // av_read_frame gave no packet: a lost live source, a segment's or the file's end (a
  // loop's restart), or an error (thrown). True when the decoder was given a drain to do;
  // false at the input's end.
  bool on_read_end(int ret);
  // An FFmpeg I/O status: a failure while stopping is the stop's doing (Interrupted), any
  // other an InputError that says `what`.
  void check_io(int status, const std::string& what) const;
  // reader.decoders: whether the file can be split, and each decoder's kind (split_kinds_),
  // decided before this, the first decoder, opens as the first kind.
  void plan_split();
  // The other decoders and the fan that merges them, where the plan has more than one.
  void split_over_decoders();
  // Opens the decoders after this one as split_kinds_ says; the index of the first whose
  // frames cannot go in among this one's (all closed again), 0 when all of them can.
  int start_siblings();
  // Why a sibling's frames cannot join this decoder's ("" when they can).
  std::string why_frames_differ(const VideoReader& sibling) const;
  std::vector<const VideoReader*> all_decoders() const;
  // The dealer's rates for split_kinds_ until each decoder has measured its own (empty for
  // decoders of one kind: they start lowest first).
  std::vector<double> expected_rates() const;
  // How many copied-out NVDEC frames each of a split file's `sessions` may run ahead (segment_fan.hpp).
  std::size_t nvdec_lane_frames(const std::vector<std::int64_t>& starts, int sessions) const;
  // A split file's packet that is the keyframe of the segment after this decoder's current one.
  bool starts_next_segment(const AVPacket& packet) const;
  // A split file's segment has been read: drain, then go on at this decoder's next one.
  bool end_segment();
  bool seek_to_next_segment();
  int seek_to_segment_start();  // an FFmpeg status
  std::optional<DecodedFrame> decode_one();
  // input.stagger (reader_start.cpp): seeks part way into the file, or for a preload starts
  // its replay part way through; the frames before the start are decoded and let go.
  void start_part_way();
  bool receive_from_start(AVFrame* out);
  void preload(int frames);
  std::optional<DecodedFrame> replay();
  bool receive_into(AVFrame* out);
  bool feed_decoder();
  AvFramePtr to_pool_layout(AvFramePtr decoded);
  void pace(std::int64_t index);
  [[noreturn]] void throw_pass_decoded_nothing() const;
  bool pass_starts_with_idr(const AVPacket& packet) const;
  void open_decoder(const AVCodec* codec, const AVCodecParameters* par);
  // Decodes the first frame to see whether NVDEC really started; if FFmpeg fell back to
  // software, starts again with a CPU decoder and its threads.
  void confirm_nvdec(const AVCodec* codec);
  // A live source stopped sending or failed: reopen it, or throw once attempts run out.
  void reconnect(int error);
  // Opens the input again, up to the configured attempts with backoff; null if stopped.
  // `stream_index` (may be null) gets the video stream the attempt checked.
  AvInputPtr open_with_retries(const std::string& cause, const YuvLayout* expected, int* stream_index);
  AvFramePtr from_device(AvFramePtr decoded);
  // What NVDEC writes on the device for this stream (NV12, P010, P016, YUV444P...), read
  // from the first frame confirm_nvdec kept.
  AVPixelFormat nvdec_format() const;

  ReaderOptions options_;
  std::string shown_uri_;  // options_.uri without its secrets (base/redact.hpp): for every message
  VideoInfo info_;
  YuvLayout layout_;
  int alloc_width_ = 0;
  int alloc_height_ = 0;
  AvInputPtr input_;
  AvCodecContextPtr decoder_;
  AvPacketPtr packet_;
  std::unique_ptr<FramePool> pool_;
  SwsContext* sws_ = nullptr;
  AVPixelFormat pool_format_ = AV_PIX_FMT_YUV420P;  // what pool frames hold (layout_ says where)
  // Reads that may wait forever (live inputs, named pipes) obey input.timeout_ms.
  bool timed_reads_ = false;
  int stream_index_ = -1;
  bool input_done_ = false;
  bool flushed_ = false;
  std::int64_t next_index_ = 0;
  double last_file_s_ = 0.0;     // the last frame's time in the file
  // input.stagger: the first frame's time in the file, so that the input's times start at 0
  // as a camera's do from when it is switched on; 0 from the first loop on.
  double start_offset_s_ = 0.0;
  std::int64_t packets_this_pass_ = 0;
  std::int64_t frames_this_pass_ = 0;  // input.loop: a pass that decodes nothing ends the run
  bool loop_feeds_on_ = false;          // input.loop without draining (loop_restart.hpp)
  LoopRestart loop_restart_;
  std::atomic<std::int64_t> decode_errors_{0};  // these two are read live by the metrics endpoint
  std::int64_t converted_frames_ = 0;
  double clock_origin_ = 0.0;
  double pace_start_ = -1.0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> pool_exhausted_{false};
  IoDeadline deadline_{stop_, options_.cancel};
  std::unique_ptr<NvdecDecoder> nvdec_;
  bool nvdec_failed_ = false;  // asked for, but FFmpeg could not start it
  AvFramePtr primed_;          // the first NVDEC frame, decoded by confirm_nvdec()
  bool copy_out_of_nvdec_ = false;  // frames leave NVDEC's surfaces at once (NvdecDecoder::copy_out)
  std::atomic<int> reconnects_{0};
  std::atomic<bool> reconnecting_{false};
  int pending_reconnect_ = 0;  // the read error, while the decoder drains before a reconnect
  int source_ = 0;
  std::vector<DecodedFrame> preloaded_;  // input.preload: held, and handed out again in turn
  std::size_t replayed_ = 0;
  std::size_t replay_offset_ = 0;     // input.stagger with a preload: where the replay starts
  // input.stagger: frames before this stream time are let go (NaN once one reached it).
  double start_at_s_ = std::numeric_limits<double>::quiet_NaN();
  std::int64_t segment_ = 0;          // the segment being decoded (options_.segments)
  bool pending_segment_ = false;      // draining the decoder at a segment's end
  std::int64_t empty_segments_ = 0;   // in a row: a looping file whose segments decode nothing
  std::vector<std::int64_t> split_starts_;  // a split file's segment starts (segment_plan.hpp)
  std::vector<Decoder> split_kinds_;        // and each of its decoders' kinds: this one's first
  std::vector<std::unique_ptr<VideoReader>> siblings_;  // a split file's other decoders
  std::int64_t fan_index_ = 0;
  std::unique_ptr<SegmentFan> fan_;   // last: its threads stop before the rest goes
};

}  // namespace vidpipe
