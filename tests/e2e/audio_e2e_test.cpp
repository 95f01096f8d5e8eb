// sink.audio: the input's audio in the output, copied or re-encoded to AAC, in sync with the
// video (same start, same length within 50 ms), each input's own audio with several inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "cli_runner.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

using test::StreamInfo;

// Two seconds of video with a sine tone of `tone` Hz in AAC; `audio_input_args` go before the
// tone's input (e.g. -itsoffset for a late start).
std::string clip_with_audio(const std::string& name, int tone = 440, const std::string& audio_input_args = "") {
  const std::string path = test::scratch_dir() + "/" + name;
  const std::string cmd = "ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=25 " + audio_input_args +
                          " -f lavfi -i sine=frequency=" + std::to_string(tone) +
                          ":sample_rate=44100 -map 0:v -map 1:a -t 2 -c:v libx264 -pix_fmt yuv420p -c:a aac " + path;
  EXPECT_EQ(test::run_command(cmd), 0) << cmd;
  return path;
}

test::CommandResult run(const std::string& input, const std::string& out, const std::string& sets = "") {
  return test::vidpipe("run --set device=cpu --set gpu.inference=false --set metrics.report= --input " + input +
                       " --set sink.path=" + out + " " + sets);
}

const StreamInfo* find(const std::vector<StreamInfo>& streams, const std::string& type) {
  for (const StreamInfo& s : streams)
    if (s.type == type) return &s;
  return nullptr;
}

void expect_in_sync(const std::string& out, const std::string& codec) {
  const std::vector<StreamInfo> streams = test::streams_of(out);
  const StreamInfo* video = find(streams, "video");
  const StreamInfo* audio = find(streams, "audio");
  ASSERT_TRUE(video && audio) << out << " lacks a stream";
  EXPECT_EQ(audio->codec, codec) << out;
  EXPECT_NEAR(audio->start_s + audio->duration_s, video->start_s + video->duration_s, 0.05) << out << ": ends apart";
}

// Zero crossings a second: twice the tone's frequency for a sine.
double pitch_of(const std::vector<std::int16_t>& samples, int rate) {
  int crossings = 0;
  for (std::size_t i = 1; i < samples.size(); ++i) crossings += (samples[i - 1] < 0) != (samples[i] < 0);
  return crossings / 2.0 / (double(samples.size()) / rate);
}

TEST(AudioE2E, AacIsCopiedAsItIs) {
  const std::string in = clip_with_audio("aac.mp4"), out = test::scratch_dir() + "/aac-out.mp4";
  const test::CommandResult r = run(in, out);
  ASSERT_EQ(r.code, 0) << r.output;
  expect_in_sync(out, "aac");
  // Copied, not re-encoded: the decoded samples are the input's, sample for sample.
  EXPECT_EQ(test::audio_samples(out, 44100), test::audio_samples(in, 44100));
}

TEST(AudioE2E, PcmIntoMp4IsReencodedToAac) {
  const std::string in = test::scratch_dir() + "/pcm.mkv", out = test::scratch_dir() + "/pcm-out.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=320x240:rate=25 -f lavfi -i "
                              "sine=frequency=440:sample_rate=44100 -t 2 -c:v libx264 -pix_fmt yuv420p -c:a pcm_s16le " +
                              in),
            0);
  const test::CommandResult r = run(in, out);
  ASSERT_EQ(r.code, 0) << r.output;
  expect_in_sync(out, "aac");
  EXPECT_NEAR(pitch_of(test::audio_samples(out, 44100), 44100), 440, 5);
}

TEST(AudioE2E, ALateAudioStartStaysLate) {
  // The audio begins half a second after the video: so must the output's.
  const std::string in = clip_with_audio("late.mp4", 440, "-itsoffset 0.5"), out = test::scratch_dir() + "/late-out.mp4";
  const test::CommandResult r = run(in, out);
  ASSERT_EQ(r.code, 0) << r.output;
  const std::vector<StreamInfo> in_streams = test::streams_of(in), out_streams = test::streams_of(out);
  const double in_gap = find(in_streams, "audio")->start_s - find(in_streams, "video")->start_s;
  const double out_gap = find(out_streams, "audio")->start_s - find(out_streams, "video")->start_s;
  ASSERT_GT(in_gap, 0.4);
  EXPECT_NEAR(out_gap, in_gap, 0.05);
}

TEST(AudioE2E, AShortenedRunCutsTheAudioWithTheVideo) {
  const std::string in = clip_with_audio("cut.mp4"), out = test::scratch_dir() + "/cut-out.mp4";
  const test::CommandResult r = run(in, out, "--set input.max_frames=20");
  ASSERT_EQ(r.code, 0) << r.output;
  expect_in_sync(out, "aac");
  EXPECT_NEAR(find(test::streams_of(out), "video")->duration_s, 20 / 25.0, 0.01);
}

TEST(AudioE2E, NoneWritesVideoAlone) {
  const std::string in = clip_with_audio("none.mp4"), out = test::scratch_dir() + "/none-out.mp4";
  const test::CommandResult r = run(in, out, "--set sink.audio=none");
  ASSERT_EQ(r.code, 0) << r.output;
  const std::vector<StreamInfo> streams = test::streams_of(out);
  EXPECT_TRUE(find(streams, "video"));
  EXPECT_FALSE(find(streams, "audio"));
}

TEST(AudioE2E, EachOutputGetsItsOwnInputsAudio) {
  const std::string low = clip_with_audio("low.mp4", 300), high = clip_with_audio("high.mp4", 1200);
  const std::string dir = test::scratch_dir();
  const test::CommandResult r = test::vidpipe("run --set device=cpu --set gpu.inference=false --set metrics.report= "
                                              "--set 'inputs=[" + low + ", " + high + "]' --set sink.path=" + dir +
                                              "/pair.mp4");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NEAR(pitch_of(test::audio_samples(dir + "/pair-0.mp4", 44100), 44100), 300, 5);
  EXPECT_NEAR(pitch_of(test::audio_samples(dir + "/pair-1.mp4", 44100), 44100), 1200, 10);
}

// input.stagger: the first input starts at the file's start and keeps its audio; the second
// starts half way in, where the file's audio from its start would be out of step: it has none,
// and the run says so.
TEST(AudioE2E, AnInputStartedPartWayInHasNoAudio) {
  const std::string in = clip_with_audio("stagger-audio.mp4"), dir = test::scratch_dir();
  const test::CommandResult r = test::vidpipe("run --set device=cpu --set gpu.inference=false --set metrics.report= "
                                              "--set 'inputs=[" + in + ", " + in + "]' --set input.loop=true "
                                              "--set input.stagger=true --set input.max_frames=50 --set sink.path=" +
                                              dir + "/stagger-audio-out.mp4");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(find(test::streams_of(dir + "/stagger-audio-out-0.mp4"), "audio"));
  EXPECT_FALSE(find(test::streams_of(dir + "/stagger-audio-out-1.mp4"), "audio"));
  EXPECT_NE(r.output.find("starts part way in (input.stagger): its audio, if any, is not copied"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace vidpipe
