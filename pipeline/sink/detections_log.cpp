#include "sink/detections_log.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"

namespace vidpipe {

DetectionLog::DetectionLog(const std::string& path) : out_(path, "metrics.detections") {}

// fmt rather than a JSON object per frame: one line a frame at thousands of frames a
// second, with nothing in it that needs escaping.
void DetectionLog::write(int input, std::int64_t frame, double stream_s, const DetectionList& found) {
  std::string line = fmt::format(R"({{"input":{},"frame":{},"pts_s":{:.6f},"faces":[)", input, frame, stream_s);
  for (int i = 0; i < found.count; ++i) {
    const Detection& d = found.det[i];
    line += fmt::format("{}[{:.2f},{:.2f},{:.2f},{:.2f},{:.4f}]", i ? "," : "", d.x0, d.y0, d.x1, d.y1, d.score);
  }
  line += "]}\n";
  out_.write(line);
}

void DetectionLog::finish() { out_.commit(); }

}  // namespace vidpipe
