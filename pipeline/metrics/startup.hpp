// Where a run's start and end go. fps leaves them out (its window opens after the
// warm-up), but whoever transcodes a short file pays them whole, so the report splits
// them: finding the GPU, opening the inputs, the model, the outputs, the first frame's
// own way through the stages, then finishing the outputs and freeing the parts.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace vidpipe {

// How long each part of assembling the run took, seconds.
struct StartupTimes {
  double process_s = -1;  // the process's start (exec, library loading) to pipeline time 0; -1: unknown
  double cuda_s = 0;      // finding the device and making its context
  double inputs_s = 0;    // demuxers, decoders, frame pools (a preload's decoding too)
  double executor_s = 0;  // the model and the device's buffers and streams
  double sinks_s = 0;     // encoders or windows, output pools
};

// The first frame's way through the stages: seconds on the pipeline clock (0 = its start).
struct FirstFrameTimes {
  bool seen = false;
  double decode_begin_s = 0, decoded_s = 0;
  double gpu_begin_s = 0, gpu_end_s = 0;  // its batch's device work (the CPU twins' on the CPU path)
  double delivered_s = 0;                 // out of the sink
};

// After the last frame, seconds; -1 until known (the live report, or a run still going).
struct ShutdownTimes {
  double finish_s = -1;   // finishing the outputs: encoder flush, trailer, audio
  double release_s = -1;  // freeing pools, executor and readers
};

nlohmann::json startup_json(const StartupTimes& startup, const FirstFrameTimes& first);
nlohmann::json shutdown_json(const ShutdownTimes& shutdown);

// One summary line, e.g. "start-up: process 0.09 s, CUDA 0.21, inputs 0.05, ...".
std::string startup_line(const StartupTimes& startup, const FirstFrameTimes& first, const ShutdownTimes& shutdown);

// Seconds since this process was started, from /proc/self/stat (10 ms ticks); -1 where it
// cannot be read.
double process_age_seconds();

}  // namespace vidpipe
