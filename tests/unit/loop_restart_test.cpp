#include <gtest/gtest.h>

#include <vector>

#include "source/loop_restart.hpp"
#include "source/video_reader.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(LoopRestart, FindsAnIdrSliceBehindParameterSetsInAnnexB) {
  const Bytes sps_pps_idr = {0, 0, 0, 1, 0x67, 0x42, 0, 0, 1, 0x68, 0xce, 0, 0, 1, 0x65, 0x88};
  const Bytes sps_pps_i = {0, 0, 0, 1, 0x67, 0x42, 0, 0, 1, 0x68, 0xce, 0, 0, 1, 0x41, 0x9a};
  EXPECT_TRUE(LoopRestart::starts_with_idr(AV_CODEC_ID_H264, {}, sps_pps_idr));
  EXPECT_FALSE(LoopRestart::starts_with_idr(AV_CODEC_ID_H264, {}, sps_pps_i));
}

TEST(LoopRestart, ReadsLengthPrefixedPacketsWithTheSizeAvcCGives) {
  const Bytes avcc_4 = {1, 0x64, 0, 0x1f, 0xff};  // lengthSizeMinusOne = 3
  const Bytes avcc_2 = {1, 0x64, 0, 0x1f, 0xfd};  // lengthSizeMinusOne = 1
  const Bytes sei_then_idr_4 = {0, 0, 0, 2, 0x06, 0x05, 0, 0, 0, 2, 0x65, 0x88};
  const Bytes sei_then_idr_2 = {0, 2, 0x06, 0x05, 0, 2, 0x65, 0x88};
  EXPECT_TRUE(LoopRestart::starts_with_idr(AV_CODEC_ID_H264, avcc_4, sei_then_idr_4));
  EXPECT_TRUE(LoopRestart::starts_with_idr(AV_CODEC_ID_H264, avcc_2, sei_then_idr_2));
  // Read with the wrong length size, the same bytes are no IDR (and no read past the end).
  EXPECT_FALSE(LoopRestart::starts_with_idr(AV_CODEC_ID_H264, avcc_2, sei_then_idr_4));
  const Bytes length_past_end = {0, 0, 0x10, 0, 0x65, 0x88};
  EXPECT_FALSE(LoopRestart::starts_with_idr(AV_CODEC_ID_H264, avcc_4, length_past_end));
}

TEST(LoopRestart, HevcIdrIsIdrButCraIsNot) {
  const Bytes idr_w_radl = {0, 0, 1, 19 << 1, 1}, idr_n_lp = {0, 0, 1, 20 << 1, 1}, cra = {0, 0, 1, 21 << 1, 1};
  EXPECT_TRUE(LoopRestart::starts_with_idr(AV_CODEC_ID_HEVC, {}, idr_w_radl));
  EXPECT_TRUE(LoopRestart::starts_with_idr(AV_CODEC_ID_HEVC, {}, idr_n_lp));
  EXPECT_FALSE(LoopRestart::starts_with_idr(AV_CODEC_ID_HEVC, {}, cra));
  // The same byte read as H.264 (type 6, SEI) is no IDR either; other codecs never are.
  EXPECT_FALSE(LoopRestart::starts_with_idr(AV_CODEC_ID_H264, {}, idr_w_radl));
  EXPECT_FALSE(LoopRestart::starts_with_idr(AV_CODEC_ID_MPEG4, {}, idr_w_radl));
}

TEST(LoopRestart, DecodesNothingOnlyAfterTwoPassesAndTheDecodersHoldBack) {
  LoopRestart restart;
  for (int i = 0; i < 64; ++i) restart.packet_sent();
  EXPECT_FALSE(restart.decodes_nothing(10)) << "64 packets may all be held back by frame threads";
  restart.packet_sent();
  EXPECT_TRUE(restart.decodes_nothing(10));
  EXPECT_FALSE(restart.decodes_nothing(40)) << "65 packets are less than two passes of 40";
  restart.frame_out();
  EXPECT_FALSE(restart.decodes_nothing(1));
}

struct LoopCase {
  const char* file;
  const char* args;
  const char* encoder;
  bool fed_on;  // the next pass follows without a drain
};

class LoopPasses : public ::testing::TestWithParam<LoopCase> {};

std::vector<std::uint8_t> visible_luma(const DecodedFrame& f, const YuvLayout& l) {
  std::vector<std::uint8_t> luma;  // padding holds whatever
  for (int y = 0; y < l.height; ++y)
    luma.insert(luma.end(), f.data() + y * l.pitch[0], f.data() + y * l.pitch[0] + l.width);
  return luma;
}

// Every pass gives the first pass's frames, in order, with its timestamps: whether the
// next pass was fed on behind the last (IDR start) or the decoder drained and flushed.
TEST_P(LoopPasses, EveryPassIsTheFirstFrameForFrame) {
  const LoopCase& c = GetParam();
  if (!test::ffmpeg_has_encoder(c.encoder)) GTEST_SKIP() << "this ffmpeg has no " << c.encoder << " encoder";
  const std::string clip = test::make_clip(c.file, 160, 120, 14, c.args);
  ASSERT_FALSE(clip.empty());
  const std::size_t per_pass = test::decode_all(clip).frames.size();
  ASSERT_GT(per_pass, 0u);
  ReaderOptions ro = test::pageable_reader(clip, 2);  // frame threads hold frames back
  ro.input.loop = true;
  VideoReader reader(ro);
  std::vector<std::vector<std::uint8_t>> luma;
  std::vector<double> stream_s;
  while (luma.size() < 3 * per_pass) {
    auto f = reader.next();
    ASSERT_TRUE(f) << "ended after " << luma.size() << " frames";
    luma.push_back(visible_luma(*f, reader.layout()));
    stream_s.push_back(f->stream_s);
  }
  EXPECT_EQ(reader.loops_by_feeding_on(), c.fed_on);
  for (std::size_t i = per_pass; i < luma.size(); ++i) {
    EXPECT_EQ(luma[i], luma[i % per_pass]) << "frame " << i % per_pass << " of pass " << i / per_pass + 1;
    EXPECT_DOUBLE_EQ(stream_s[i], stream_s[i % per_pass]) << "frame " << i % per_pass << " of pass " << i / per_pass + 1;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, LoopPasses,
    ::testing::Values(
        LoopCase{"loop-bframes.mp4", "-c:v libx264 -pix_fmt yuv420p -bf 3 -g 5", "libx264", true},
        LoopCase{"loop-bframes.ts", "-c:v libx264 -pix_fmt yuv420p -bf 2 -f mpegts", "libx264", true},
        LoopCase{"loop-hevc.mkv", "-c:v libx265 -pix_fmt yuv420p -x265-params log-level=error:bframes=3", "libx265", true},
        LoopCase{"loop-mpeg4.avi", "-c:v mpeg4 -q:v 3 -bf 2", "mpeg4", false}),
    [](const auto& info) {
      std::string n = info.param.file;
      for (char& ch : n)
        if (ch == '.' || ch == '-') ch = '_';
      return n;
    });

// A capture cut into an open-GOP stream starts on a non-IDR I picture whose leading B
// pictures refer to the GOP before it: fed on behind the last pass they would decode
// against its pictures. It drains instead, and every pass gives the same frames.
TEST(LoopPassesOpenGop, ACutThatStartsOnANonIdrPictureIsDrained) {
  if (!test::ffmpeg_has_encoder("libx264")) GTEST_SKIP() << "this ffmpeg has no libx264 encoder";
  const std::string whole = test::make_clip("open-gop.ts", 160, 120, 60,
                                            "-c:v libx264 -pix_fmt yuv420p -bf 2 -x264-params "
                                            "open-gop=1:keyint=12:min-keyint=12:scenecut=0 -f mpegts");
  const std::string cut = test::scratch_dir() + "/open-gop-cut.ts";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel quiet -y -ss 0.5 -i " + whole + " -c copy -f mpegts " + cut), 0);
  ReaderOptions ro = test::pageable_reader(cut, 1);
  const std::size_t per_pass = test::decode_all(cut).frames.size();
  ro.input.loop = true;
  VideoReader reader(ro);
  std::vector<std::vector<std::uint8_t>> luma;
  while (luma.size() < 2 * per_pass + 2) {
    auto f = reader.next();
    ASSERT_TRUE(f);
    luma.push_back(visible_luma(*f, reader.layout()));
  }
  EXPECT_FALSE(reader.loops_by_feeding_on());
  for (std::size_t i = per_pass; i < luma.size(); ++i) EXPECT_EQ(luma[i], luma[i % per_pass]) << "frame " << i;
}

}  // namespace
}  // namespace vidpipe
