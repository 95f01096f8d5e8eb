// input.stagger: a reader started part way into its file hands out, as its frame 0, the
// file's frame at that point (decoded from the keyframe before, the frames between let go),
// then loops back to the file's start; a preloaded input's replay starts there too.
#include <gtest/gtest.h>

#include <cmath>

#include "source/video_reader.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

constexpr int clip_frames = 30;  // one second at 30 fps, keyframes every 10, B-frames between

std::string gop_clip() {
  return test::make_clip("stagger.mp4", 160, 96, clip_frames, "-c:v libx264 -pix_fmt yuv420p -g 10 -bf 2");
}

// The frame's luma, rows packed, as decode_all's frames begin.
std::vector<std::uint8_t> luma_of(const DecodedFrame& f, const YuvLayout& l) {
  std::vector<std::uint8_t> out;
  for (int y = 0; y < l.height; ++y) {
    const std::uint8_t* row = f.data() + l.offset[0] + static_cast<std::size_t>(y) * l.pitch[0];
    out.insert(out.end(), row, row + l.width);
  }
  return out;
}

std::vector<std::uint8_t> luma_of(const std::vector<std::uint8_t>& decoded, int width, int height) {
  return {decoded.begin(), decoded.begin() + static_cast<std::ptrdiff_t>(width) * height};
}

TEST(ReaderStagger, StartsPartWayThenLoopsBackToTheFilesStart) {
  const std::string clip = gop_clip();
  ASSERT_FALSE(clip.empty());
  const test::DecodedVideo source = test::decode_all(clip);
  ASSERT_EQ(static_cast<int>(source.frames.size()), clip_frames);
  // 12 and 15: between keyframes (decoded from 10, two and five frames let go); 27: after
  // the last keyframe, so the loop comes three frames later; 20: a keyframe itself.
  for (const double fraction : {0.4, 0.5, 0.9, 2.0 / 3}) {
    ReaderOptions ro = test::pageable_reader(clip, 2);
    ro.input.loop = true;
    ro.start_fraction = fraction;
    VideoReader reader(ro);
    const int first = static_cast<int>(std::lround(fraction * clip_frames));
    for (int j = 0; j < clip_frames + 5; ++j) {
      std::optional<DecodedFrame> f = reader.next();
      ASSERT_TRUE(f) << "fraction " << fraction << " frame " << j;
      EXPECT_EQ(f->index, j) << "numbered from the start of the run, not of the file";
      const int expected = (first + j) % clip_frames;
      EXPECT_EQ(luma_of(*f, reader.layout()), luma_of(source.frames[expected], source.width, source.height))
          << "fraction " << fraction << ": frame " << j << " should be the file's frame " << expected;
      // Its times start at 0 as a camera's do from when it is switched on; from the loop on,
      // the file's own, as any looping input's.
      const double expected_s = j < clip_frames - first ? j / 30.0 : expected / 30.0;
      EXPECT_NEAR(f->stream_s, expected_s, 1e-3) << "fraction " << fraction << " frame " << j;
    }
  }
}

TEST(ReaderStagger, APreloadedInputsReplayStartsPartWay) {
  const std::string clip = gop_clip();
  const test::DecodedVideo source = test::decode_all(clip);
  ReaderOptions ro = test::pageable_reader(clip, 1);
  ro.input.loop = true;
  ro.input.preload = clip_frames;
  ro.start_fraction = 0.25;
  VideoReader reader(ro);
  const int first = clip_frames / 4;  // 7 of 30
  for (int j = 0; j < clip_frames; ++j) {
    std::optional<DecodedFrame> f = reader.next();
    ASSERT_TRUE(f);
    EXPECT_EQ(f->index, j);
    EXPECT_NEAR(f->stream_s, j / 30.0, 1e-3) << "times from the input's start, on across the replay's wrap";
    EXPECT_EQ(luma_of(*f, reader.layout()),
              luma_of(source.frames[(first + j) % clip_frames], source.width, source.height)) << "frame " << j;
  }
}

TEST(ReaderStagger, InputsOfARunStartEvenlyApart) {
  InputConfig in;
  EXPECT_EQ(stagger_fraction(in, 3, 4), 0.0) << "off unless asked for";
  in.stagger = true;
  EXPECT_EQ(stagger_fraction(in, 0, 1), 0.0) << "one input has nothing to be out of step with";
  EXPECT_EQ(stagger_fraction(in, 0, 4), 0.0);
  EXPECT_EQ(stagger_fraction(in, 3, 4), 0.75);
}

}  // namespace
}  // namespace vidpipe
