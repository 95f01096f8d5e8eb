// /readyz and /inputs from a report snapshot.
#include <gtest/gtest.h>

#include "metrics/health.hpp"

namespace vidpipe {
namespace {

nlohmann::json report_with(int first_decoded, int second_decoded, double recent_fps) {
  return {{"recent_fps", recent_fps},
          {"inputs",
           {{{"uri", "rtsp://cam1/live"}, {"frames_decoded", first_decoded}, {"fps", 30.0}, {"decoder", "nvdec"}},
            {{"uri", "rtsp://***@cam2/live"}, {"frames_decoded", second_decoded}, {"fps", 29.5}}}}};
}

TEST(Health, ReadyOnlyWhenEveryInputDeliveredAndFramesStillCome) {
  EXPECT_TRUE(readiness_of(report_with(10, 12, 59.0)).ready);
  const Readiness waiting = readiness_of(report_with(10, 0, 30.0));
  EXPECT_FALSE(waiting.ready);
  EXPECT_EQ(waiting.why, "input 1 (rtsp://***@cam2/live) has not delivered a frame yet");
  const Readiness stalled = readiness_of(report_with(10, 12, 0.0));
  EXPECT_FALSE(stalled.ready);
  EXPECT_EQ(stalled.why, "no frame came out in the last seconds");
  EXPECT_FALSE(readiness_of(nlohmann::json::object()).ready);
}

TEST(Health, InputsAreListedByIdWithTheirFigures) {
  const nlohmann::json inputs = inputs_of(report_with(10, 12, 59.0));
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[1]["id"], 1);
  EXPECT_EQ(inputs[1]["uri"], "rtsp://***@cam2/live");
  EXPECT_EQ(inputs[0]["decoder"], "nvdec");
  EXPECT_TRUE(inputs[1]["decoder"].is_null()) << "a figure the report lacks is null, not made up";
  EXPECT_EQ(inputs[1]["frames_decoded"], 12);
}

}  // namespace
}  // namespace vidpipe
