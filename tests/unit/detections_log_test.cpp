// metrics.detections: one JSON line a frame, boxes clipped to the picture the detector saw.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "sink/detections_log.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

TEST(DetectionLog, BoxesThatRunOffThePictureAreClippedToIt) {
  const std::string path = test::scratch_dir() + "/clipped.jsonl";
  DetectionList found;
  found.count = 2;
  found.det[0] = {-12.5f, -3.f, 50.f, 40.f, 0.9f};   // over the top-left corner
  found.det[1] = {150.f, 100.f, 171.25f, 133.f, 0.7f};  // over the bottom-right corner
  {
    // Input 1 was turned upright: 120 wide, 160 high.
    DetectionLog log(path, {{160, 120}, {120, 160}});
    log.write(0, 7, 0.25, found);
    log.write(1, 8, 0.5, found);
    log.finish();
  }
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const nlohmann::json first = nlohmann::json::parse(line);
  EXPECT_EQ(first["frame"], 7);
  EXPECT_EQ(first["faces"][0], nlohmann::json::parse("[0.0, 0.0, 50.0, 40.0, 0.9]"));
  EXPECT_EQ(first["faces"][1], nlohmann::json::parse("[150.0, 100.0, 160.0, 120.0, 0.7]"));
  ASSERT_TRUE(std::getline(in, line));
  const nlohmann::json second = nlohmann::json::parse(line);
  EXPECT_EQ(second["faces"][1], nlohmann::json::parse("[120.0, 100.0, 120.0, 133.0, 0.7]"));
}

}  // namespace
}  // namespace vidpipe
