#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "metrics/prometheus_text.hpp"

namespace vidpipe {
namespace {

// A Latin-1 byte in an input's path: the exposition stays UTF-8 (the byte becomes U+FFFD)
// and the other figures are all there.
TEST(PrometheusText, ANonUtf8PathKeepsTheExpositionValid) {
  nlohmann::json report = {{"fps", 30.0}, {"frames", 10}};
  report["inputs"] = nlohmann::json::array({{{"uri", std::string("/videos/caf\xe9.mp4")}, {"fps", 30.0},
                                             {"frames_decoded", 10}}});
  const std::string text = prometheus_text(report);
  EXPECT_NO_THROW((void)nlohmann::json(text).dump()) << "the exposition holds bytes that are not UTF-8";
  EXPECT_NE(text.find("uri=\"/videos/caf\xef\xbf\xbd.mp4\""), std::string::npos) << text;
  EXPECT_NE(text.find("vidpipe_input_frames_decoded_total"), std::string::npos) << text;
}

}  // namespace
}  // namespace vidpipe
