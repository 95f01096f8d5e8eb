// Live inputs and the network sink, end to end on 127.0.0.1: ffmpeg -re plays a
// generated clip into vidpipe over UDP or TCP (or receives vidpipe's stream), as a
// camera server or a viewer would. The CPU path with the detector at 416 runs far
// below the sender's 30 fps, so the drop policy is exercised on any machine.
#include <gtest/gtest.h>

#include <csignal>
#include <functional>
#include <optional>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "background.hpp"
#include "cli_runner.hpp"
#include "test_media.hpp"
#include "trace_reader.hpp"

namespace vidpipe {
namespace {

using namespace std::chrono_literals;
using test::Background;
using test::read_json;
using test::vidpipe;

std::string scratch(const std::string& name) { return test::scratch_dir() + "/" + name; }

std::string live_clip() {
  return test::make_clip("live.mp4", 320, 240, 150, "-c:v libx264 -pix_fmt yuv420p -g 15 -r 30");
}

std::string sender(const std::string& clip, const std::string& url, int frames = 0) {
  return "ffmpeg -hide_banner -loglevel error -re -i " + clip + (frames > 0 ? " -frames:v " + std::to_string(frames) : "") +
         " -c copy -f mpegts '" + url + "'";
}

// The clip sent again and again: for runs that keep a number of frames however many they drop.
std::string looping_sender(const std::string& clip, const std::string& url) {
  return "ffmpeg -hide_banner -loglevel error -re -stream_loop -1 -i " + clip + " -c copy -f mpegts '" + url + "'";
}

struct LiveRun {
  int code;
  std::string log;
  nlohmann::json report;
};

// The port of a udp:// URL; 0 for other schemes.
int udp_port(const std::string& url) {
  if (url.rfind("udp://", 0) != 0) return 0;
  return std::stoi(url.substr(url.rfind(':') + 1));
}

// vidpipe reading `url` while `send` plays into it; vidpipe starts first (its
// first open waits and retries), as a receiver left running would. A UDP sender
// starts once vidpipe has bound the port (UDP has no handshake: earlier packets are lost).
LiveRun receive(const std::string& name, const std::string& url, const std::string& send, const std::string& sets) {
  const std::string report = scratch(name + ".json");
  std::filesystem::remove(report);
  Background receiver(test::vidpipe_command_line("run --input '" + url + "' --set device=cpu --report " + report +
                                                 " --set metrics.warmup_frames=5 --set metrics.live=false " + sets),
                      scratch(name + ".log"));
  if (const int port = udp_port(url); port > 0)
    EXPECT_TRUE(test::wait_until([&] { return test::udp_bound(port); }, 60s)) << "vidpipe never bound " << url;
  Background playing(send, scratch(name + "-sender.log"));
  // Only a hang takes this long; a sanitiser build runs the CPU detector ~10x slower.
  const std::optional<int> code = receiver.wait(300s);
  LiveRun r{code.value_or(-1), test::file_bytes(scratch(name + ".log")), nullptr};
  if (std::filesystem::exists(report)) r.report = read_json(report);
  return r;
}

// Frames a run can hold between decoder and sink on the CPU path: the queue, the one
// being processed and the sink's queue; the report's bound must stay within it.
constexpr int cpu_path_hold = 2 /* queue_frames */ + 1 /* slot */ + 1 /* in flight */ + 1 /* to sink */ + 2;

TEST(LiveE2E, UdpDropsOldestFramesAndLatencyStaysBounded) {
  const int port = test::test_port(0);
  const std::string url = "udp://127.0.0.1:" + std::to_string(port);
  const std::string trace = scratch("udp-oldest-trace.json");
  const LiveRun r = receive("udp-oldest", url, looping_sender(live_clip(), url),
                            "--set sink.kind=null --set input.max_frames=90 --set input.queue_frames=2 "
                            "--set input.drop=oldest --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.log;
  const auto& in = r.report.at("inputs").at(0);
  EXPECT_EQ(in.at("live"), true);
  // input.max_frames counts frames written, as ffmpeg's -frames:v does: the drops do not count.
  EXPECT_EQ(r.report.at("frames"), 90) << r.report.dump(1);
  const int decoded = in.at("frames_decoded").get<int>();
  // Every decoded frame either reached the sink or was counted as dropped.
  EXPECT_EQ(90 + in.at("frames_dropped").get<int>(), decoded) << r.report.dump(1);
  EXPECT_GT(in.at("frames_dropped").get<int>(), 0) << "the CPU detector cannot keep up with 30 fps, yet nothing dropped";
  EXPECT_EQ(r.report.at("frames_dropped"), in.at("frames_dropped"));
  // Which frames went: the oldest waiting ones, so the newest frame always gets through
  // (the last of the 90 is delivered), frames stay in order, and the gaps are the drops.
  const std::vector<std::int64_t> out = test::sink_frames(test::read_trace(trace));
  ASSERT_EQ(out.size(), r.report.at("frames").get<std::size_t>());
  EXPECT_EQ(out.back(), decoded - 1) << "drop oldest lost the newest frame";
  EXPECT_TRUE(std::is_sorted(out.begin(), out.end())) << "frames out of order";
  EXPECT_EQ(std::adjacent_find(out.begin(), out.end()), out.end()) << "a frame delivered twice";
  // Bounded latency: however far the detector is behind 30 fps, a frame out is never
  // more than the frames the pipeline holds times its time per frame behind live.
  const double per_frame_ms = 1e3 * r.report.at("measured_s").get<double>() / r.report.at("frames_measured").get<int>();
  EXPECT_LE(r.report.at("live_lag").at("p99_ms").get<double>(), cpu_path_hold * per_frame_ms) << r.report.dump(1);
}

// Frames dropped on a live input leave their gaps in the output's timeline: each written frame
// keeps its own presentation time (the sender's 30 fps clock), so the file lasts as long as
// the part of the stream it covers, and the gaps fall where the trace says frames went.
TEST(LiveE2E, DroppedLiveFramesLeaveGapsInTheOutputsTimes) {
  const int port = test::test_port(9);
  const std::string url = "udp://127.0.0.1:" + std::to_string(port);
  const std::string trace = scratch("udp-gaps-trace.json"), out = scratch("udp-gaps.mp4");
  const LiveRun r = receive("udp-gaps", url, looping_sender(live_clip(), url),
                            "--set sink.path=" + out + " --set input.max_frames=90 --set input.queue_frames=2 "
                            "--set input.drop=oldest --set sink.audio=none --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.log;
  ASSERT_GT(r.report.at("frames_dropped").get<int>(), 0) << "nothing dropped: no gap to look for";
  const std::vector<std::int64_t> kept = test::sink_frames(test::read_trace(trace));
  const std::vector<double> times = test::frame_times(out);
  ASSERT_EQ(times.size(), kept.size());
  EXPECT_EQ(times.size(), 90u) << "input.max_frames counts the frames written";
  bool gap = false;
  for (std::size_t i = 1; i < kept.size(); ++i) {
    EXPECT_NEAR(times[i] - times[0], (kept[i] - kept[0]) / 30.0, 0.002) << "frame " << kept[i];
    gap = gap || kept[i] - kept[i - 1] > 1;
  }
  EXPECT_TRUE(gap) << "frames were dropped, yet the kept ones are consecutive";
}

TEST(LiveE2E, UdpWithDropNoneKeepsEveryFrameAndFallsBehind) {
  const int port = test::test_port(1);
  const std::string url = "udp://127.0.0.1:" + std::to_string(port);
  const LiveRun r = receive("udp-none", url, sender(live_clip(), url),
                            "--set sink.kind=null --set input.max_frames=45 --set input.queue_frames=2 "
                            "--set input.drop=none");
  ASSERT_EQ(r.code, 0) << r.log;
  EXPECT_EQ(r.report.at("frames"), 45);
  EXPECT_EQ(r.report.at("frames_dropped"), 0);
  // Nothing dropped: the backlog waits in the socket and every frame is processed,
  // ever later: the last one is more than the pipeline's whole hold behind live.
  EXPECT_EQ(r.report.at("inputs").at(0).at("frames_decoded"), 45);
  const double per_frame_ms = 1e3 * r.report.at("measured_s").get<double>() / r.report.at("frames_measured").get<int>();
  EXPECT_GT(r.report.at("live_lag_last_ms").get<double>(), cpu_path_hold * per_frame_ms) << r.report.dump(1);
}

TEST(LiveE2E, TcpStreamArrivesWholeAndUnchanged) {
  const int port = test::test_port(2);
  const std::string clip = test::make_clip("tcp-src.mp4", 320, 240, 60, "-c:v libx264 -pix_fmt yuv420p -g 15 -r 30");
  // ffmpeg serves the stream; vidpipe connects, retrying until the server is up.
  const std::string url = "tcp://127.0.0.1:" + std::to_string(port);
  const std::string out = scratch("tcp-out.mp4");
  const LiveRun r = receive("tcp", url, sender(clip, url + "?listen=1"),
                            "--set gpu.inference=false --set overlay.hud=false --set input.drop=none "
                            "--set input.max_frames=60 --set input.reconnect.backoff_ms=100 --set sink.path=" + out);
  ASSERT_EQ(r.code, 0) << r.log;
  EXPECT_EQ(r.report.at("frames"), 60);
  const test::DecodedVideo source = test::decode_all(clip), result = test::decode_all(out);
  ASSERT_EQ(result.frames.size(), 60u);
  for (std::size_t i = 0; i < result.frames.size(); i += 10)
    EXPECT_GT(test::psnr(source.frames[i], result.frames[i]), 30.0) << "frame " << i;
}

TEST(LiveE2E, ReconnectsWhenTheSenderComesBackThenGivesUpWithTheError) {
  const int port = test::test_port(3);
  const std::string url = "udp://127.0.0.1:" + std::to_string(port);
  const std::string clip = live_clip();
  const std::string out = scratch("reconnect.mp4");
  std::filesystem::remove(out);
  // One sender for 1.5 s, silence for 1.5 s, a second sender for 2 s, then silence for good.
  // Dropping keeps the reader at the socket's head, so the silence is seen however slow the
  // build (with drop: none a slow pipeline would still be reading the backlog through it).
  const std::string send = sender(clip, url, 45) + "; sleep 1.5; " + sender(clip, url, 60);
  const LiveRun r = receive("reconnect", url, send,
                            "--set gpu.inference=false --set input.drop=oldest --set input.timeout_ms=500 "
                            "--set input.reconnect.attempts=3 --set input.reconnect.backoff_ms=100 --set sink.path=" + out);
  EXPECT_EQ(r.code, 3) << r.log;
  EXPECT_NE(r.log.find("source lost after frame"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("gave up after 3 reconnect attempts"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find(url), std::string::npos) << "the error must name the input:\n" << r.log;
  ASSERT_FALSE(r.report.is_null()) << "no report after the source was lost:\n" << r.log;
  EXPECT_GE(r.report.at("inputs").at(0).at("reconnects").get<int>(), 1) << r.log;
  EXPECT_NE(r.report.at("error").get<std::string>().find("gave up"), std::string::npos);
  // Frames of both senders arrived, and the output holds every one that reached the sink.
  const int frames = r.report.at("frames");
  EXPECT_GT(r.report.at("inputs").at(0).at("frames_decoded").get<int>(), 45) << r.log;
  EXPECT_EQ(test::decode_all(out).frames.size(), static_cast<std::size_t>(frames));
  EXPECT_FALSE(test::temporary_left(out));
}

// One SIGTERM (what docker stop and systemd send) ends the run with 130 at once while a live
// input is still opening: waiting for a sender that never comes, or backing off between
// attempts to reach one. The bound of 20 s only tells a hang (minutes here) from an ending.
void expect_one_signal_ends_it(const std::string& name, const std::string& url, const std::string& sets,
                               const std::function<bool(const std::string&)>& waiting) {
  const std::string log = scratch(name + ".log");
  Background run("exec " + test::vidpipe_command_line("run --input '" + url + "' --set device=cpu --set metrics.report= " +
                                            "--set sink.path=" + scratch(name + ".mp4") + " " + sets),
                 log);
  auto text = [&] { return test::file_bytes(log); };
  ASSERT_TRUE(test::wait_until([&] { return waiting(text()); }, 60s)) << text();
  run.send(SIGTERM);
  const std::optional<int> code = run.wait(20s);
  ASSERT_TRUE(code) << "one SIGTERM did not end it:\n" << text();
  EXPECT_EQ(*code, 130) << text();
  EXPECT_NE(text().find("stopped while '" + url + "' was opening"), std::string::npos) << text();
}

TEST(LiveE2E, OneSignalEndsARunWaitingForASender) {
  const int port = test::test_port(7);
  expect_one_signal_ends_it("signal-listen", "tcp://127.0.0.1:" + std::to_string(port) + "?listen=1",
                            "--set input.timeout_ms=600000", [&](const std::string&) { return test::tcp_listening(port); });
}

TEST(LiveE2E, OneSignalEndsARunBackingOffBetweenAttempts) {
  const int port = test::test_port(8);  // nobody listens: every attempt is refused
  expect_one_signal_ends_it("signal-backoff", "tcp://127.0.0.1:" + std::to_string(port),
                            "--set input.reconnect.attempts=100 --set input.reconnect.backoff_ms=4000",
                            [](const std::string& log) { return log.find("retrying") != std::string::npos; });
}

TEST(LiveE2E, StreamSinkSendsMpegTsAViewerCanRecord) {
  const int port = test::test_port(4);
  const std::string clip = test::make_clip("stream-src.mp4", 320, 240, 60, "-c:v libx264 -pix_fmt yuv420p -g 15 -r 30");
  const std::string recorded = scratch("viewer.ts");
  std::filesystem::remove(recorded);
  // The viewer: ffmpeg listening on TCP and keeping what arrives, as ffplay would show it.
  Background viewer("ffmpeg -hide_banner -loglevel error -y -i 'tcp://127.0.0.1:" + std::to_string(port) +
                        "?listen=1' -c copy " + recorded,
                    scratch("viewer.log"));
  ASSERT_TRUE(test::wait_until([&] { return test::tcp_listening(port); }, 10s)) << test::file_bytes(scratch("viewer.log"));
  const auto r = vidpipe("run --input " + clip + " --set device=cpu --set gpu.inference=false --set overlay.hud=false "
                         "--set sink.kind=stream --set sink.path=tcp://127.0.0.1:" + std::to_string(port));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("stream mpegts"), std::string::npos) << r.output;
  ASSERT_EQ(viewer.wait(20s).value_or(-1), 0) << test::file_bytes(scratch("viewer.log"));
  const test::DecodedVideo source = test::decode_all(clip), got = test::decode_all(recorded);
  ASSERT_EQ(got.frames.size(), 60u);
  EXPECT_EQ(got.width, 320);
  for (std::size_t i = 0; i < got.frames.size(); i += 10)
    EXPECT_GT(test::psnr(source.frames[i], got.frames[i]), 30.0) << "frame " << i;
}

TEST(LiveE2E, StreamSinkOverUdpReachesAListeningViewer) {
  const int port = test::test_port(5);
  const std::string clip = test::make_clip("udp-out-src.mp4", 320, 240, 60, "-c:v libx264 -pix_fmt yuv420p -g 15 -r 30");
  const std::string recorded = scratch("viewer-udp.ts");
  std::filesystem::remove(recorded);
  // ffplay udp://127.0.0.1:PORT would show it; this viewer keeps it, and ends 2 s
  // after the last packet.
  Background viewer("ffmpeg -hide_banner -loglevel error -y -timeout 2000000 -i 'udp://127.0.0.1:" +
                        std::to_string(port) + "' -c copy " + recorded,
                    scratch("viewer-udp.log"));
  // UDP has no handshake: the viewer must be bound first.
  ASSERT_TRUE(test::wait_until([&] { return test::udp_bound(port); }, 10s)) << test::file_bytes(scratch("viewer-udp.log"));
  // A paced file is live (input.drop applies): drop none, so a slow build sends every frame.
  const auto r = vidpipe("run --input " + clip + " --set device=cpu --set gpu.inference=false --set overlay.hud=false "
                         "--set input.realtime=true --set input.drop=none --set sink.kind=stream "
                         "--set sink.path=udp://127.0.0.1:" +
                         std::to_string(port));
  ASSERT_EQ(r.code, 0) << r.output;
  viewer.wait(20s);
  const test::DecodedVideo source = test::decode_all(clip), got = test::decode_all(recorded);
  ASSERT_EQ(got.frames.size(), 60u) << test::file_bytes(scratch("viewer-udp.log"));
  for (std::size_t i = 0; i < got.frames.size(); i += 10)
    EXPECT_GT(test::psnr(source.frames[i], got.frames[i]), 30.0) << "frame " << i;
}

// An IP camera's RTSP (RTP/H.264) stream, served by GStreamer's RTSP server.
TEST(LiveE2E, RtspCameraStreamArrivesWhole) {
  if (std::system("/usr/bin/python3 -c 'import gi; gi.require_version(\"GstRtspServer\", \"1.0\"); "
                  "from gi.repository import GstRtspServer' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no GStreamer RTSP server for python3 here (scripts/setup.sh installs gir1.2-gst-rtsp-server-1.0)";
  const int port = test::test_port(6);
  const std::string clip = test::make_clip("rtsp-src.mp4", 320, 240, 90, "-c:v libx264 -pix_fmt yuv420p -g 30 -r 30");
  Background server("/usr/bin/python3 " + test::source_dir() + "/tests/support/rtsp_server.py " + clip + " " +
                        std::to_string(port),
                    scratch("rtsp-server.log"));
  ASSERT_TRUE(test::wait_until([&] { return test::tcp_listening(port); }, 10s)) << test::file_bytes(scratch("rtsp-server.log"));
  const std::string url = "rtsp://127.0.0.1:" + std::to_string(port) + "/live";
  const std::string out = scratch("rtsp-out.mp4"), report = scratch("rtsp.json");
  const auto r = vidpipe("run --input " + url + " --set device=cpu --set gpu.inference=false --set overlay.hud=false "
                         "--set input.drop=none --set input.max_frames=60 --set metrics.live=false --set sink.path=" +
                         out + " --report " + report);
  ASSERT_EQ(r.code, 0) << r.output << test::file_bytes(scratch("rtsp-server.log"));
  const auto j = read_json(report);
  EXPECT_EQ(j.at("frames"), 60);
  EXPECT_EQ(j.at("inputs").at(0).at("live"), true);
  EXPECT_EQ(j.at("inputs").at(0).at("decode_errors"), 0);
  const test::DecodedVideo source = test::decode_all(clip), got = test::decode_all(out);
  ASSERT_EQ(got.frames.size(), 60u);
  for (std::size_t i = 0; i < got.frames.size(); i += 10)
    EXPECT_GT(test::psnr(source.frames[i], got.frames[i]), 30.0) << "frame " << i;
}

TEST(LiveE2E, StreamSinkNeedsANetworkUrl) {
  const auto r = vidpipe("run --input " + live_clip() + " --set device=cpu --set sink.kind=stream --set sink.path=out.ts");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("sink.path: sink.kind stream sends MPEG-TS to a udp://host:port"), std::string::npos)
      << r.output;
}

TEST(LiveE2E, MissingCameraIsAClearError) {
  const auto r = vidpipe("run --input /dev/video93 --set device=cpu");
  EXPECT_EQ(r.code, 3) << r.output;
  // Where FFmpeg has V4L2 the device is missing; where it has none (the GPU machine's
  // bundle) that is the error. Either way one line naming the camera.
  EXPECT_TRUE(r.output.find("camera '/dev/video93' not found") != std::string::npos ||
              r.output.find("camera '/dev/video93': this FFmpeg has no V4L2 input") != std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace vidpipe
