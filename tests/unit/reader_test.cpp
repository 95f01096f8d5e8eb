#include <gtest/gtest.h>

#include <fstream>

#include "base/errors.hpp"
#include "test_media.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {
namespace {

// ffmpeg's own decode of `path` to raw yuv420p, frame by frame.
std::vector<std::vector<std::uint8_t>> ffmpeg_decode(const std::string& path, int w, int h) {
  const std::string raw = path + ".yuv";
  EXPECT_EQ(test::run_command("ffmpeg -loglevel error -y -i '" + path + "' -f rawvideo -pix_fmt yuv420p '" + raw + "'"), 0);
  std::ifstream in(raw, std::ios::binary);
  const std::size_t frame = static_cast<std::size_t>(w) * h + 2 * ((w + 1) / 2) * ((h + 1) / 2);
  std::vector<std::vector<std::uint8_t>> frames;
  std::vector<std::uint8_t> buf(frame);
  while (in.read(reinterpret_cast<char*>(buf.data()), frame)) frames.push_back(buf);
  return frames;
}

struct ContainerCase {
  const char* file;
  const char* args;
  const char* encoder;
};

class ReaderFormats : public ::testing::TestWithParam<ContainerCase> {};

// Decoding into the pool must give exactly the pixels FFmpeg's default path gives.
TEST_P(ReaderFormats, DecodesIntoPoolBitExact) {
  const ContainerCase& c = GetParam();
  if (!test::ffmpeg_has_encoder(c.encoder)) GTEST_SKIP() << "this ffmpeg has no " << c.encoder << " encoder";
  const std::string clip = test::make_clip(c.file, 320, 180, 12, c.args);
  ASSERT_FALSE(clip.empty());
  const test::DecodedVideo ours = test::decode_all(clip);
  const auto theirs = ffmpeg_decode(clip, 320, 180);
  ASSERT_EQ(ours.frames.size(), 12u);
  ASSERT_EQ(theirs.size(), 12u);
  for (std::size_t i = 0; i < ours.frames.size(); ++i) EXPECT_EQ(ours.frames[i], theirs[i]) << "frame " << i;
}

INSTANTIATE_TEST_SUITE_P(
    Containers, ReaderFormats,
    ::testing::Values(ContainerCase{"h264.mp4", "-c:v libx264 -pix_fmt yuv420p", "libx264"},
                      ContainerCase{"h264.ts", "-c:v libx264 -pix_fmt yuv420p -f mpegts", "libx264"},
                      ContainerCase{"hevc.mkv", "-c:v libx265 -pix_fmt yuv420p -x265-params log-level=error", "libx265"},
                      ContainerCase{"mpeg4.avi", "-c:v mpeg4 -q:v 3", "mpeg4"}),
    [](const auto& info) {
      std::string n = info.param.file;
      for (char& ch : n)
        if (ch == '.') ch = '_';
      return n;
    });

TEST(Reader, FramesLiveInPoolBuffersInDisplayOrder) {
  const std::string clip = test::make_clip("order.mp4", 256, 144, 20, "-c:v libx264 -pix_fmt yuv420p -bf 3");
  ReaderOptions ro = test::pageable_reader(clip, 2);
  VideoReader reader(ro);
  EXPECT_EQ(reader.info().width, 256);
  EXPECT_EQ(reader.info().codec, "h264");
  std::int64_t expected = 0;
  while (auto f = reader.next()) {
    EXPECT_EQ(f->index, expected++);
    EXPECT_TRUE(reader.pool().owns(f->frame->buf[0]));
    EXPECT_EQ(f->frame->data[1], f->data() + reader.layout().offset[1]);
  }
  EXPECT_EQ(expected, 20);
  EXPECT_EQ(reader.converted_frames(), 0) << "yuv420p should decode straight into the pool";
}

// A held frame's buffer is never handed out again, so its pixels stay put while
// later frames decode (what lets the GPU read it asynchronously).
TEST(Reader, HeldFramesAreNotOverwritten) {
  const std::string clip = test::make_clip("held.mp4", 256, 144, 30, "-c:v libx264 -pix_fmt yuv420p");
  ReaderOptions ro = test::pageable_reader(clip, 1);
  VideoReader reader(ro);
  auto first = reader.next();
  ASSERT_TRUE(first);
  const std::vector<std::uint8_t> before(first->data(), first->data() + reader.layout().frame_bytes);
  int rest = 0;
  while (auto f = reader.next()) ++rest;
  EXPECT_EQ(rest, 29);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), first->data()));
}

TEST(Reader, PoolTooSmallIsAClearErrorNotAHang) {
  const std::string clip = test::make_clip("small-pool.mp4", 256, 144, 30, "-c:v libx264 -pix_fmt yuv420p");
  ReaderOptions ro = test::pageable_reader(clip, 1);
  ro.reader.pool_frames = 3;
  ro.reader.pool_wait_ms = 300;
  VideoReader reader(ro);
  std::vector<DecodedFrame> held;  // a sink that never lets go
  try {
    while (auto f = reader.next()) held.push_back(std::move(*f));
    FAIL() << "expected the pool to run dry";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("frame pool exhausted"), std::string::npos) << e.what();
  }
  EXPECT_LE(held.size(), 3u);
}

// Formats the decoder cannot write into the pool's 4:2:0 layout are converted into it;
// the pixels must be what ffmpeg's own conversion makes of the same file.
// 10-bit, 4:2:2 and 4:4:4 go into the pool as decoded, with no host conversion; narrowed as
// the GPU stage's first step does (the twin), they match ffmpeg's own conversion to 8-bit 4:2:0.
TEST(Reader, WideFormatsGoInAsDecoded) {
  struct Wide {
    const char* format;
    int bytes, shift_x, shift_y;
  };
  for (const Wide w : {Wide{"yuv444p", 1, 0, 0}, Wide{"yuv422p", 1, 1, 0}, Wide{"yuv420p10le", 2, 1, 1},
                       Wide{"yuv422p10le", 2, 1, 0}, Wide{"yuv444p10le", 2, 0, 0}}) {
    const std::string clip = test::make_clip(std::string(w.format) + ".mp4", 128, 96, 5,
                                             std::string("-c:v libx264 -pix_fmt ") + w.format);
    VideoReader reader(test::pageable_reader(clip));
    EXPECT_EQ(reader.info().pixel_format, w.format);
    EXPECT_EQ(reader.layout().sample_bytes, w.bytes) << w.format;
    EXPECT_EQ(reader.layout().chroma_shift_x, w.shift_x) << w.format;
    EXPECT_EQ(reader.layout().chroma_shift_y, w.shift_y) << w.format;
    int n = 0;
    while (auto f = reader.next()) {
      EXPECT_TRUE(reader.pool().owns(f->frame->buf[0]));
      ++n;
    }
    EXPECT_EQ(n, 5) << w.format;
    EXPECT_EQ(reader.converted_frames(), 0) << w.format;
    const test::DecodedVideo got = test::decode_all(clip), want = test::ffmpeg_yuv420p(clip, 128, 96);
    ASSERT_EQ(got.frames.size(), want.frames.size()) << w.format;
    for (std::size_t i = 0; i < got.frames.size(); ++i)
      EXPECT_GT(test::psnr(got.frames[i], want.frames[i]), 40.0) << w.format << " frame " << i;
  }
}

// What the GPU stage cannot take as decoded is still converted on the host.
TEST(Reader, OtherPixelFormatsAreConverted) {
  const std::string clip = test::make_clip("bgr24.avi", 128, 96, 5, "-c:v rawvideo -pix_fmt bgr24");
  VideoReader reader(test::pageable_reader(clip));
  EXPECT_TRUE(reader.layout().narrow());
  int n = 0;
  while (auto f = reader.next()) ++n;
  EXPECT_EQ(n, 5);
  EXPECT_EQ(reader.converted_frames(), 5);
  EXPECT_EQ(reader.info().colour.range, ColourRange::limited);  // as swscale writes it, whatever the tags
}

TEST(Reader, StillImageIsOneFrame) {
  const std::string png = test::scratch_dir() + "/still.png";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=200x100 -frames:v 1 '" + png + "'"), 0);
  ReaderOptions ro = test::pageable_reader(png);
  VideoReader reader(ro);
  EXPECT_EQ(reader.info().width, 200);
  int n = 0;
  while (auto f = reader.next()) ++n;
  EXPECT_EQ(n, 1);
  const test::DecodedVideo got = test::decode_all(png), want = test::ffmpeg_yuv420p(png, 200, 100);
  ASSERT_EQ(got.frames.size(), 1u);
  ASSERT_EQ(want.frames.size(), 1u);
  EXPECT_GT(test::psnr(got.frames[0], want.frames[0]), 40.0);
}

TEST(Reader, NotAVideoIsAnInputError) {
  const std::string bogus = test::scratch_dir() + "/bogus.mp4";
  std::ofstream(bogus) << "this is not a video file at all";
  ReaderOptions ro;
  ro.uri = bogus;
  try {
    VideoReader reader(ro);
    FAIL() << "opened a text file as video";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(bogus), std::string::npos) << "message must name the file: " << e.what();
  }
}

}  // namespace
}  // namespace vidpipe
