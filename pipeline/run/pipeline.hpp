// Builds reader, executor and sink from a Config and runs them: the sync driver
// (one thread, one frame at a time) or the async driver (DESIGN.md's threads).
#pragma once
#include <atomic>
#include <exception>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "config/config.hpp"
#include "metrics/memory_usage.hpp"
#include "metrics/prediction.hpp"
#include "metrics/run_metrics.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

struct RunResult {
  VideoInfo input;
  std::string device;       // "cpu" or the GPU's name
  std::string mode;         // e.g. "async pinned x2"
  Summary summary;
  StartupTimes startup;    // what assembling the run took (the first frame's times are in summary.first)
  ShutdownTimes shutdown;  // finishing the outputs and freeing the parts
  std::int64_t decode_errors = 0;
  MemorySample memory_after_warmup, memory_at_end;
  nlohmann::json report;
  // A sync run's forecast of async with copy.streams (0 fps for an async run).
  Prediction prediction;
  // Set when the run ended on an error (lost source, write failure...): the outputs
  // are finalised and the figures cover what got through; the caller reports it.
  std::exception_ptr error;
};

// Where a run shows its live report besides its own metrics.listen: a serving process runs
// a pipeline per input (service/input_service.hpp) and answers for them all on one endpoint.
class LiveReportBoard {
 public:
  virtual ~LiveReportBoard() = default;
  // From when the run is assembled until withdraw(); called on other threads meanwhile.
  virtual void show(std::function<nlohmann::json()> snapshot) = 0;
  // Before the parts go: waits for a snapshot in progress.
  virtual void withdraw() = 0;
};

// Runs the whole pipeline; `stop` (may be null) ends it early but cleanly: frames
// already read are finished and the output file is finalised. Errors before the
// pipeline starts (bad input, config, CUDA) throw; errors during it come back in
// RunResult::error. `program_version` goes into the report as vidpipe_version.
// `board` (may be null) is shown the live report while the run goes on.
RunResult run_pipeline(const Config& config, const std::atomic<bool>* stop, const std::string& program_version = {},
                       LiveReportBoard* board = nullptr);

std::string mode_label(const Config& config);

}  // namespace vidpipe
