// The display sink in a real X server (Xvfb): the window shows the frames with the
// HUD, s switches the copy mode and q ends the run cleanly with a report. Skips
// where Xvfb or xdotool is missing, or the build has no highgui (the GPU machine's).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "background.hpp"
#include "cli_runner.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

using namespace std::chrono_literals;

// The live lines the run printed so far (one a second once frames flow).
int live_lines(const std::string& log) {
  int n = 0;
  for (std::size_t at = log.find("| fps "); at != std::string::npos; at = log.find("| fps ", at + 1)) ++n;
  return n;
}

bool have(const std::string& program) { return test::run_command("command -v " + program + " >/dev/null 2>&1") == 0; }

// The clip's colour, R=32 G=96 B=208, as BT.601 limited-range Y'CbCr.
constexpr int clip_y = 93, clip_u = 187, clip_v = 92;

TEST(DisplayE2E, WindowShowsFramesAndHudAndKeysWork) {
  if (!have("Xvfb") || !have("xdotool")) GTEST_SKIP() << "Xvfb or xdotool not installed: display test skipped";
  const std::string dir = test::scratch_dir();
  const auto probe = test::vidpipe("run --set device=cpu --set sink.kind=display --set input.max_frames=0 "
                                   "--input /no/such/file.mp4");
  if (probe.output.find("display is not built") != std::string::npos)
    GTEST_SKIP() << "this vidpipe has no display sink (built without highgui)";

  const std::string clip = dir + "/display-src.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i color=c=0x2060D0:size=640x360:rate=30 "
                              "-frames:v 30 -c:v libx264 -pix_fmt yuv420p " + clip),
            0);
  // -displayfd: Xvfb picks a free display itself and writes its number once it accepts
  // clients (a fixed number can meet a stale socket or lock of an earlier server).
  const std::string display_file = dir + "/xvfb-display";
  std::filesystem::remove(display_file);
  // -noreset: the probe below is its first client, and a server resets when its last
  // client leaves; vidpipe should not meet one mid-reset.
  test::Background xvfb("Xvfb -displayfd 3 -noreset -screen 0 1280x800x24 -nolisten tcp 3>" + display_file,
                        dir + "/xvfb.log");
  std::string number;
  test::wait_until(
      [&] {
        number = test::file_bytes(display_file);
        while (!number.empty() && (number.back() == '\n' || number.back() == ' ')) number.pop_back();
        return !number.empty();
      },
      10s);
  ASSERT_FALSE(number.empty()) << "Xvfb never said which display it serves: " << test::file_bytes(dir + "/xvfb.log");
  const std::string d = ":" + number;
  // A client's round trip before vidpipe starts: a server that took the number but does
  // not answer is named here, not mistaken for vidpipe failing to open its window.
  const auto server_answers = [&] {
    return test::run_command("DISPLAY=" + d + " xdotool getdisplaygeometry >/dev/null 2>&1") == 0;
  };
  ASSERT_TRUE(test::wait_until(server_answers, 10s))
      << "Xvfb on " << d << " does not answer a client: " << test::file_bytes(dir + "/xvfb.log");

  const std::string report = dir + "/display.json";
  std::filesystem::remove(report);
  test::Background run("DISPLAY=" + d + " " +
                           test::vidpipe_command_line("run --input " + clip + " --set device=cpu --set gpu.inference=false "
                                                      "--set input.loop=true --set input.realtime=true "
                                                      "--set sink.kind=display --set metrics.warmup_frames=0 "
                                                      "--set metrics.live=true --report " + report),
                       dir + "/display.log");
  const std::string xdo = "DISPLAY=" + d + " xdotool search --name 'vidpipe: '";
  ASSERT_TRUE(test::wait_until([&] { return test::run_command(xdo + " >/dev/null 2>&1") == 0; }, 30s))
      << "no vidpipe window on " << d << " (Xvfb " << (server_answers() ? "answers" : "does not answer")
      << "):\n" << test::file_bytes(dir + "/display.log") << "\nXvfb's log:\n" << test::file_bytes(dir + "/xvfb.log");
  // The HUD's fps is first drawn after the first live line (one second of frames).
  ASSERT_TRUE(test::wait_until([&] { return live_lines(test::file_bytes(dir + "/display.log")) >= 2; }, 60s))
      << test::file_bytes(dir + "/display.log");
  const std::string shot = dir + "/display-shot.png";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f x11grab -video_size 1280x800 -i " + d +
                              " -frames:v 1 " + shot),
            0);
  ASSERT_EQ(test::run_command(xdo + " windowfocus --sync key s"), 0);
  // Frames after the switch: two more live lines, each a second of them.
  const int lines_at_switch = live_lines(test::file_bytes(dir + "/display.log"));
  const auto lines_now = [&] { return live_lines(test::file_bytes(dir + "/display.log")); };
  ASSERT_TRUE(test::wait_until([&] { return lines_now() >= lines_at_switch + 2; }, 60s))
      << test::file_bytes(dir + "/display.log");
  ASSERT_EQ(test::run_command(xdo + " windowfocus --sync key q"), 0);
  const std::optional<int> code = run.wait(15s);
  const std::string log = test::file_bytes(dir + "/display.log");
  ASSERT_TRUE(code.has_value()) << "q did not end the run:\n" << log;
  EXPECT_EQ(*code, 0) << log;
  ASSERT_TRUE(std::filesystem::exists(report)) << log;
  // s switched the executor itself: frames before it ran async, frames after it sync.
  const nlohmann::json j = test::read_json(report);
  const int frames = j.at("frames"), sync_frames = j.at("frames_sync_copies");
  EXPECT_GT(sync_frames, 0) << "no frame ran with sync copies after s:\n" << log;
  EXPECT_GT(frames - sync_frames, 0) << "no frame ran async before s";
  EXPECT_EQ(j.at("inputs").at(0).at("frames_written"), frames) << "the window did not show every frame once";

  // The screenshot: the frame's colour fills the window, and the HUD's white text
  // sits in its top rows.
  const test::DecodedVideo screen = test::decode_all(shot);
  ASSERT_EQ(screen.frames.size(), 1u);
  const int w = screen.width, h = screen.height;
  const std::uint8_t* y = screen.frames[0].data();
  const std::uint8_t* u = y + w * h;
  const std::uint8_t* v = u + (w / 2) * (h / 2);
  int x0 = w, y0 = h, x1 = -1, y1 = -1;
  long matching = 0;
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) {
      const int ci = (r / 2) * (w / 2) + c / 2;
      if (std::abs(y[r * w + c] - clip_y) < 14 && std::abs(u[ci] - clip_u) < 14 && std::abs(v[ci] - clip_v) < 14) {
        ++matching;
        x0 = std::min(x0, c), y0 = std::min(y0, r), x1 = std::max(x1, c), y1 = std::max(y1, r);
      }
    }
  ASSERT_GT(matching, 640L * 360 * 8 / 10) << "the frame's colour is not on screen";
  long hud_pixels = 0;
  for (int r = y0; r < y0 + (y1 - y0) / 6; ++r)
    for (int c = x0; c <= x1; ++c) hud_pixels += y[r * w + c] > 200;
  EXPECT_GT(hud_pixels, 200) << "no HUD text in the window's top rows";
}

}  // namespace
}  // namespace vidpipe
