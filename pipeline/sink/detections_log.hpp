// metrics.detections: every delivered frame's faces as one JSON line, so a script (or a
// peer implementation, scripts/device/peer_torch.py) can check what the detector found.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>

#include "common/image_types.hpp"

namespace vidpipe {

class DetectionLog {
 public:
  // Creates (truncates) `path`; throws OutputError naming the key and the file when it cannot.
  explicit DetectionLog(const std::string& path);
  // Called on the sink thread in delivery order (each input's frames in order).
  void write(int input, std::int64_t frame, double stream_s, const DetectionList& found);
  // Flushes; called at the end of the run (the destructor also flushes, e.g. on an error).
  void finish();

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace vidpipe
