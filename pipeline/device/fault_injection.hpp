// Faults the reliability tests cause on purpose, named by the VIDPIPE_INJECT_FAULT
// environment variable (docs/RELIABILITY.md), never by the config a user writes:
//   gpu-trap:N   the batch holding frame N launches a kernel that traps, which leaves
//                the CUDA context unusable, as a device fault or reset would.
#pragma once
#include <cstdint>
#include <string>

namespace vidpipe {

struct InjectedFault {
  std::int64_t gpu_trap_at_frame = -1;  // -1: none
};

// Throws ConfigError naming the variable for a value it does not understand.
InjectedFault parse_injected_fault(const std::string& value);
InjectedFault injected_fault_from_env();

}  // namespace vidpipe
