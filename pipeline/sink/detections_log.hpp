// metrics.detections: every delivered frame's faces as one JSON line, so a script (or a
// peer implementation, scripts/device/peer_torch.py) can check what the detector found.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/output_file.hpp"

#include "common/image_types.hpp"

namespace vidpipe {

class DetectionLog {
 public:
  // Writes under a temporary name (output_file.hpp); throws OutputError naming the key and
  // the file when it cannot.
  // `frame_sizes`: each input's picture as the detector saw it (turned upright), width and
  // height; boxes are clipped to it, as a box that runs off the picture means its edge.
  // `key`: what a line calls its boxes: "faces" (the built-in detector), "boxes" (a user's
  // model: each box [x0, y0, x1, y1, score, class]), or "tensor": the raw decoder's summary of
  // the frame's output instead of boxes.
  DetectionLog(const std::string& path, std::vector<std::pair<int, int>> frame_sizes, std::string key = "faces");
  // Called on the sink thread in delivery order (each input's frames in order).
  void write(int input, std::int64_t frame, double stream_s, const DetectionList& found);
  // Puts the whole log in place; called at the end of the run, also after an error (the
  // frames delivered until then are its lines). Not called (a crash): no file, not half of one.
  void finish();

 private:
  OutputFile out_;
  std::vector<std::pair<int, int>> frame_sizes_;
  std::string key_;
};

}  // namespace vidpipe
