// Faults the reliability tests cause on purpose, named by the VIDPIPE_INJECT_FAULT
// environment variable (docs/RELIABILITY.md), never by the config a user writes:
//   gpu-trap:N         the batch holding frame N launches a kernel that traps, which leaves
//                      the CUDA context unusable, as a device fault or reset would.
//   stop-in-loop-seek  a looping input raises SIGTERM from inside FFmpeg's first I/O of
//                      its first wrap (the seek back to the start or the read after it).
//   stop-in-read:N     once frame N is decoded, SIGTERM is raised from inside FFmpeg's next
//                      read of the input.
//   slow-decoder:K:MS  decoder K of a split file (reader.decoders) waits MS ms after each
//                      frame, as a slower decoder beside the others would.
// The two stops land where a timed signal lands only by chance, so the tests that an
// interrupt cut short is a clean stop are deterministic.
#pragma once
#include <cstdint>
#include <string>

namespace vidpipe {

struct InjectedFault {
  std::int64_t gpu_trap_at_frame = -1;  // -1: none
  bool stop_in_loop_seek = false;
  std::int64_t stop_in_read_after_frame = -1;  // -1: none
  int slow_decoder = -1;  // -1: none
  int slow_decoder_ms = 0;
};

// Throws ConfigError naming the variable for a value it does not understand.
InjectedFault parse_injected_fault(const std::string& value);
InjectedFault injected_fault_from_env();

}  // namespace vidpipe
