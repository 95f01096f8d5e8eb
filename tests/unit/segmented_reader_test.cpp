// reader.decoders: one file split at its keyframes over several decoders must give the
// frames one decoder gives, the same pixels and times in the same order.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "source/segment_fan.hpp"
#include "source/segment_plan.hpp"
#include "source/video_reader.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

struct Frame {
  std::vector<std::uint8_t> luma;
  double stream_s = 0;
  std::int64_t index = 0;
};

std::vector<Frame> read_frames(VideoReader& reader, std::size_t at_most = 1000) {
  const YuvLayout& l = reader.layout();
  std::vector<Frame> frames;
  while (frames.size() < at_most) {
    std::optional<DecodedFrame> f = reader.next();
    if (!f) break;
    Frame copy{std::vector<std::uint8_t>(static_cast<std::size_t>(l.width) * l.height), f->stream_s, f->index};
    for (int y = 0; y < l.height; ++y)
      std::memcpy(copy.luma.data() + static_cast<std::size_t>(y) * l.width, f->data() + l.offset[0] + y * l.pitch[0],
                  l.width);
    frames.push_back(std::move(copy));
  }
  return frames;
}

std::vector<Frame> read_frames(ReaderOptions options, std::size_t at_most = 1000) {
  VideoReader reader(options);
  return read_frames(reader, at_most);
}

ReaderOptions with_decoders(const std::string& clip, int decoders, bool loop = false) {
  ReaderOptions options = test::pageable_reader(clip, 2);
  options.reader.decoders.count = decoders;
  options.input.loop = loop;
  return options;
}

void expect_same_frames(const std::vector<Frame>& got, const std::vector<Frame>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].index, static_cast<std::int64_t>(i)) << what << ", frame " << i;
    EXPECT_DOUBLE_EQ(got[i].stream_s, want[i].stream_s) << what << ", frame " << i;
    EXPECT_TRUE(got[i].luma == want[i].luma) << what << ": frame " << i << " differs";
  }
}

// B-frames and a keyframe every second (30 frames), so the file is cut into 5 segments, with
// frames decoded out of display order inside each.
std::string gop30_clip() {
  return test::make_clip("gop30.mp4", 192, 108, 150, "-c:v libx264 -pix_fmt yuv420p -g 30 -keyint_min 30 -bf 2");
}

TEST(SegmentPlan, WithoutADealerEachDecoderTakesEveryKthSegmentPassAfterPass) {
  SegmentPlan plan{{0, 100, 200}, 1, 2, false};
  EXPECT_EQ(plan.first(), 1);
  EXPECT_EQ(plan.after(1, 30), -1);  // segment 3 would be the next pass's
  EXPECT_EQ(plan.end_of(1), 200);
  plan.loop = true;
  EXPECT_EQ(plan.after(1, 30), 3);
  EXPECT_EQ(plan.start_of(3), 0);  // pass 2's first segment
  EXPECT_EQ(plan.end_of(5), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ((SegmentPlan{{0}, 2, 3, false}).first(), -1);  // more decoders than segments
}

TEST(SegmentPlan, TheLongestSegmentIsTheLargestGapOrTheTail) {
  EXPECT_DOUBLE_EQ(longest_segment_s({0, 100, 250}, 0.01, 4.0), 1.5);  // gaps 1 and 1.5, tail 1.5
  EXPECT_DOUBLE_EQ(longest_segment_s({0, 100, 200}, 0.01, 2.1), 1.0);
  EXPECT_DOUBLE_EQ(longest_segment_s({0, 100, 200}, 0.01, 5.0), 3.0);  // the tail
  EXPECT_DOUBLE_EQ(longest_segment_s({-2}, 0.01, 3.0), 3.0);  // one GOP (B-frames: a negative start)
}

// NVDEC's copied-out frames: a whole segment ahead where the device has room for it.
TEST(SegmentFan, DeviceLanesHoldASegmentWithinAQuarterOfFreeMemory) {
  const std::size_t frame_4k = 3840 * 2160 * 3 / 2;
  EXPECT_EQ(device_lane_frames(3.0, 30, frame_4k, 139'000'000'000, 2), 91u);  // 90 frames and the next's first
  EXPECT_EQ(device_lane_frames(3.0, 30, frame_4k, 8 * frame_4k * 20, 2), 20u);  // room for 20 each
  EXPECT_EQ(device_lane_frames(3.0, 30, frame_4k, frame_4k, 2), host_lane_frames);
}

// A decoder queues up to its lane ahead of its turn, and no more: two synthetic decoders of
// one 10-frame segment each; the reader takes one frame of the first segment and waits.
TEST(SegmentFan, ADecoderRunsAheadByItsLaneAndNoMore) {
  for (const std::size_t lane : {std::size_t{4}, std::size_t{12}}) {
    std::atomic<int> second_decoded{0};
    auto segment_of_ten = [](std::int64_t segment, std::atomic<int>* decoded) {
      return [segment, decoded, n = 0]() mutable -> std::optional<DecodedFrame> {
        if (n == 10) return std::nullopt;
        ++n;
        if (decoded) ++*decoded;
        DecodedFrame f;
        f.segment = segment;
        return f;
      };
    };
    SegmentFan fan({segment_of_ten(0, nullptr), segment_of_ten(1, &second_decoded)}, {lane, lane}, nullptr, [] {});
    ASSERT_TRUE(fan.next());
    // The second decoder stops at its lane (plus the frame its push waits with) or its end.
    const int expected = static_cast<int>(std::min<std::size_t>(lane + 1, 10));
    for (int waited = 0; second_decoded < expected && waited < 10000; ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(second_decoded, expected) << "lane of " << lane;
    int rest = 0;
    while (fan.next()) ++rest;
    EXPECT_EQ(rest, 19) << "lane of " << lane;
  }
}

TEST(SegmentedReader, TwoAndThreeDecodersGiveOneDecodersFrames) {
  const std::string clip = gop30_clip();
  const std::vector<Frame> one = read_frames(with_decoders(clip, 1));
  ASSERT_EQ(one.size(), 150u);
  expect_same_frames(read_frames(with_decoders(clip, 2)), one, "2 decoders");
  expect_same_frames(read_frames(with_decoders(clip, 3)), one, "3 decoders");
}

// Two decoders of different speeds: the slow one takes fewer segments (segment_dealer.hpp),
// and the frames are still one decoder's, in order.
TEST(SegmentedReader, ASlowDecoderBesideAFastOneTakesFewerSegmentsAndTheFramesStayInOrder) {
  const std::string clip = test::make_clip("gop10.mp4", 160, 96, 300, "-c:v libx264 -pix_fmt yuv420p -g 10 -keyint_min 10");
  const std::vector<Frame> one = read_frames(with_decoders(clip, 1));
  ASSERT_EQ(one.size(), 300u);
  ReaderOptions options = with_decoders(clip, 2);
  options.injected.slow_decoder = 1;
  options.injected.slow_decoder_ms = 10;  // ~100 fps at most, where decoder 0 makes thousands
  VideoReader reader(options);
  expect_same_frames(read_frames(reader), one, "a fast and a slow decoder");
  const auto figures = reader.split_figures();
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].frames + figures[1].frames, 300);
  EXPECT_GT(figures[0].segments, 2 * figures[1].segments)
      << "fast " << figures[0].segments << " segments at " << figures[0].fps() << " fps, slow " << figures[1].segments
      << " at " << figures[1].fps() << " fps";
  EXPECT_GT(figures[0].fps(), figures[1].fps());
}

// A file of one GOP is split a pass a segment when it loops.
TEST(SegmentedReader, ALoopedSingleGopFileIsSplitByPass) {
  const std::string clip = test::make_clip("one-gop.mp4", 160, 96, 12, "-c:v libx264 -pix_fmt yuv420p -g 1000");
  const std::vector<Frame> one = read_frames(with_decoders(clip, 1, true), 50);
  ASSERT_EQ(one.size(), 50u);
  VideoReader split(with_decoders(clip, 2, true));
  EXPECT_EQ(split.info().decoders, 2);
  expect_same_frames(read_frames(with_decoders(clip, 2, true), 50), one, "2 decoders, looping");
}

// What cannot be cut is read by one decoder, with a note, and still read whole.
TEST(SegmentedReader, ATransportStreamIsReadByOneDecoder) {
  const std::string clip =
      test::make_clip("gop10.ts", 192, 108, 30, "-c:v libx264 -pix_fmt yuv420p -g 10 -f mpegts");
  VideoReader reader(with_decoders(clip, 2));
  EXPECT_EQ(reader.info().decoders, 1);
  expect_same_frames(read_frames(with_decoders(clip, 2)), read_frames(with_decoders(clip, 1)), "TS");
}

// A stop while the decoders run ahead ends the reader without a hang.
TEST(SegmentedReader, StopsWhileItsDecodersRunAhead) {
  VideoReader reader(with_decoders(gop30_clip(), 3, true));
  ASSERT_TRUE(reader.next());
  reader.request_stop();
  int after_stop = 0;
  while (reader.next()) ++after_stop;
  EXPECT_LE(after_stop, 3 * 5) << "no more than what the three decoders had queued";
}

}  // namespace
}  // namespace vidpipe
