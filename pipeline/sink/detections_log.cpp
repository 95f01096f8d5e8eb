#include "sink/detections_log.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.hpp"

namespace vidpipe {

DetectionLog::DetectionLog(const std::string& path, std::vector<std::pair<int, int>> frame_sizes, std::string key)
    : out_(path, "metrics.detections"), frame_sizes_(std::move(frame_sizes)), key_(std::move(key)) {}

// fmt rather than a JSON object per frame: one line a frame at thousands of frames a
// second, with nothing in it that needs escaping.
void DetectionLog::write(int input, std::int64_t frame, double stream_s, const DetectionList& found) {
  if (key_ == "tensor") {
    const TensorSummary& t = found.summary;
    out_.write(fmt::format(R"({{"input":{},"frame":{},"pts_s":{:.6f},"tensor":{{"min":{},"max":{},"mean":{},)"
                           R"("argmax":{},"nonfinite":{}}}}})"
                           "\n",
                           input, frame, stream_s, t.min, t.max, t.mean, t.argmax, t.nonfinite));
    return;
  }
  std::string line = fmt::format(R"({{"input":{},"frame":{},"pts_s":{:.6f},"{}":[)", input, frame, stream_s, key_);
  const auto [width, height] = frame_sizes_.at(static_cast<std::size_t>(input));
  const auto x = [w = static_cast<float>(width)](float v) { return std::clamp(v, 0.f, w); };
  const auto y = [h = static_cast<float>(height)](float v) { return std::clamp(v, 0.f, h); };
  // A user's model's boxes carry their class (0 for a model of one); faces have none.
  const bool classes = key_ == "boxes";
  for (int i = 0; i < found.count; ++i) {
    const Detection& d = found.det[i];
    line += fmt::format("{}[{:.2f},{:.2f},{:.2f},{:.2f},{:.4f}", i ? "," : "", x(d.x0), y(d.y0), x(d.x1), y(d.y1),
                        d.score);
    line += classes ? fmt::format(",{}]", d.label) : "]";
  }
  line += "]}\n";
  out_.write(line);
}

void DetectionLog::finish() { out_.commit(); }

}  // namespace vidpipe
