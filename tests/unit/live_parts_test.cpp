// The pieces behind live and multi-input runs that need no network: the queue's drop
// policies, the camera's avdevice options, how a mixed batch is laid out, and the decoders'
// priority against the pipeline's threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/blocking_queue.hpp"
#include "base/thread_priority.hpp"
#include "device/batch_packing.hpp"
#include "background.hpp"
#include "memory/frame_layout.hpp"
#include "test_media.hpp"
#include "source/frame_sources.hpp"
#include "source/input_open.hpp"

namespace vidpipe {
namespace {

TEST(BlockingQueue, DropOldestKeepsTheNewestFrames) {
  BlockingQueue<int> q(2);
  EXPECT_EQ(q.push_or_drop(1, true), 0);
  EXPECT_EQ(q.push_or_drop(2, true), 0);
  EXPECT_EQ(q.push_or_drop(3, true), 1);
  EXPECT_EQ(q.pop(), 2);
  EXPECT_EQ(q.pop(), 3);
}

TEST(BlockingQueue, DropNewestKeepsTheQueuedFrames) {
  BlockingQueue<int> q(2);
  q.push_or_drop(1, false);
  q.push_or_drop(2, false);
  EXPECT_EQ(q.push_or_drop(3, false), 1);
  EXPECT_EQ(q.pop(), 1);
  EXPECT_EQ(q.pop(), 2);
  q.close();
  EXPECT_EQ(q.push_or_drop(4, true), -1);
  EXPECT_FALSE(q.pop().has_value());
}

std::string entry(const AvDictionaryPtr& d, const char* key) {
  const AVDictionaryEntry* e = av_dict_get(d.get(), key, nullptr, 0);
  return e ? e->value : "";
}

TEST(CameraOptions, FormatSizeAndRateBecomeV4l2Options) {
  const AvDictionaryPtr d = camera_options({CameraFormat::yuyv, 1280, 720, 30});
  EXPECT_EQ(entry(d, "input_format"), "yuyv422");
  EXPECT_EQ(entry(d, "video_size"), "1280x720");
  EXPECT_EQ(entry(d, "framerate"), "30");
  const AvDictionaryPtr defaults = camera_options({CameraFormat::automatic, 0, 0, 0});
  EXPECT_EQ(av_dict_count(defaults.get()), 0);
  EXPECT_EQ(entry(camera_options({CameraFormat::mjpeg, 0, 0, 0}), "input_format"), "mjpeg");
}

TEST(InputOptions, RtspGetsItsTransportOtherUrisDoNot) {
  InputConfig o;
  EXPECT_EQ(entry(input_options("rtsp://cam.local/live", o), "rtsp_transport"), "tcp");
  o.rtsp_transport = RtspTransport::udp;
  EXPECT_EQ(entry(input_options("rtsp://cam.local/live", o), "rtsp_transport"), "udp");
  o.rtsp_transport = RtspTransport::automatic;
  EXPECT_EQ(input_options("rtsp://cam.local/live", o), nullptr) << "auto leaves FFmpeg's own order";
  o.rtsp_transport = RtspTransport::tcp;
  EXPECT_EQ(input_options("udp://127.0.0.1:5000", o), nullptr);
  o.camera = {CameraFormat::mjpeg, 0, 0, 0};
  EXPECT_EQ(entry(input_options("/dev/video0", o), "input_format"), "mjpeg");
}

TEST(MixedBatch, FramesOfOneInputFormRunsAndPackTightly) {
  const std::vector<YuvLayout> layouts = {make_yuv_layout(64, 48, 64, 48, false), make_yuv_layout(32, 16, 32, 16, true)};
  std::vector<DecodedFrame> frames(6);
  const int sources[] = {0, 0, 1, 1, 1, 0};
  for (int i = 0; i < 6; ++i) frames[i].source = sources[i];
  const std::vector<FrameRun> runs = runs_of(frames);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ((std::vector<int>{runs[0].first, runs[0].count, runs[0].source}), (std::vector<int>{0, 2, 0}));
  EXPECT_EQ((std::vector<int>{runs[1].first, runs[1].count, runs[1].source}), (std::vector<int>{2, 3, 1}));
  EXPECT_EQ((std::vector<int>{runs[2].first, runs[2].count, runs[2].source}), (std::vector<int>{5, 1, 0}));
  const BatchPacking p = pack_batch(frames, layouts);
  std::size_t yuv = 0, bgr = 0;
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(p.yuv[i], yuv) << i;
    EXPECT_EQ(p.bgr[i], bgr) << i;
    const YuvLayout& l = layouts[sources[i]];
    yuv += l.frame_bytes;
    bgr += static_cast<std::size_t>(l.width) * l.height * 3;
  }
  EXPECT_EQ(p.yuv_bytes, yuv);
  EXPECT_LE(p.yuv_bytes, 6 * max_frame_bytes(layouts));  // what a slot allocates
  EXPECT_LE(p.bgr_bytes, 6 * max_pixels(layouts) * 3);
}

// Which frames a live input's full queue drops, by policy: the reader decodes the whole
// file before anything is taken, so the queue ends holding either the newest frames
// (drop oldest) or the first ones (drop newest).
std::vector<std::int64_t> frames_left_after_drops(DropPolicy policy) {
  const std::string clip = test::make_clip("drops.mp4", 64, 48, 12, "-c:v libx264 -pix_fmt yuv420p");
  std::vector<std::unique_ptr<VideoReader>> readers;
  readers.push_back(std::make_unique<VideoReader>(test::pageable_reader(clip, 1)));
  SourceOptions o;
  o.queue_frames = 3;
  o.drop = policy;
  FrameSources sources(std::move(readers), {true}, o);
  sources.start();
  // 12 frames through a queue of 3 that nobody empties: the 9th drop is the last push done.
  EXPECT_TRUE(test::wait_until([&] { return sources.dropped(0) == 9; }, std::chrono::seconds(60)));
  std::vector<std::int64_t> left;
  while (auto f = sources.pop()) left.push_back(f->index);
  return left;
}

TEST(FrameSources, DropOldestKeepsTheNewestFrames) {
  EXPECT_EQ(frames_left_after_drops(DropPolicy::oldest), (std::vector<std::int64_t>{9, 10, 11}));
}

TEST(FrameSources, DropNewestKeepsTheFirstFrames) {
  EXPECT_EQ(frames_left_after_drops(DropPolicy::newest), (std::vector<std::int64_t>{0, 1, 2}));
}

// Nice values of this process's threads, from /proc (the field after the command's parenthesis
// is the 3rd; nice is the 19th in all).
std::vector<int> thread_niceness() {
  std::vector<int> nice;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), {});
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string field;
    for (int k = 3; k <= 19 && fields >> field; ++k)
      if (k == 19) nice.push_back(std::stoi(field));
  }
  return nice;
}

// Nice values a FrameSources' reader thread and the decoders opened for `inputs` readers
// ran at, against the opening thread's before and after.
struct Niceness {
  int base = 0, frame_threads_added = 0, reader_thread = -100, opener_after = 0;
};

Niceness niceness_with(int inputs, int nice) {
  const int nicer = this_thread_niceness() + nice;
  Niceness n;
  n.base = this_thread_niceness();
  const std::vector<int> before = thread_niceness();
  const std::string clip = test::make_clip("nicer.mp4", 64, 48, 30, "-c:v libx264 -pix_fmt yuv420p");
  ReaderOptions reader_options = test::pageable_reader(clip, 4);
  reader_options.reader.nice = nice;
  std::vector<ReaderOptions> options(static_cast<std::size_t>(inputs), reader_options);
  std::vector<std::unique_ptr<VideoReader>> readers = open_readers(options);
  n.opener_after = this_thread_niceness();
  const std::vector<int> after = thread_niceness();
  n.frame_threads_added = static_cast<int>(std::count(after.begin(), after.end(), nicer) -
                                           std::count(before.begin(), before.end(), nicer));
  std::atomic<int> reader_thread{-100};
  SourceOptions o;
  o.decoder_nice = nice;
  o.observer = [&](ReaderState, double, double) { reader_thread = this_thread_niceness(); };
  FrameSources sources(std::move(readers), std::vector<bool>(static_cast<std::size_t>(inputs), false), o);
  sources.start();
  while (sources.pop()) {
  }
  n.reader_thread = reader_thread.load();
  return n;
}

// reader.nice: with several inputs, decoding threads (FFmpeg's frame threads, started as a
// reader opens, and each input's reader thread) run that much nicer than the pipeline's: the
// thread that opens the inputs goes on to run the pipeline and keeps its priority. One
// input's run is left as it was.
TEST(FrameSources, ReaderNiceMakesDecodersOfSeveralInputsNicerThanThePipeline) {
  const int base = this_thread_niceness(), nice = 10;
  if (base + nice > 19) GTEST_SKIP() << "the tests run at nice " << base << ": no room to be nicer";
  const Niceness several = niceness_with(2, nice);
  EXPECT_EQ(several.opener_after, base) << "the opening thread runs the pipeline next";
  EXPECT_GE(several.frame_threads_added, 6) << "FFmpeg's frame threads, 4 a reader";
  EXPECT_EQ(several.reader_thread, base + nice);
  const Niceness one = niceness_with(1, nice);
  EXPECT_EQ(one.frame_threads_added, 0);
  EXPECT_EQ(one.reader_thread, base);
  // reader.nice 3: that much nicer; 0, the default: every thread keeps the process's priority.
  EXPECT_EQ(niceness_with(2, 3).reader_thread, base + 3);
  EXPECT_EQ(ReaderConfig{}.nice, 0);
  EXPECT_EQ(niceness_with(2, 0).reader_thread, base);
  EXPECT_EQ(this_thread_niceness(), base);
}

}  // namespace
}  // namespace vidpipe
