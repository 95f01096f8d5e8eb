// Process and device memory in use, for the report (a soak run must not grow).
#pragma once

namespace vidpipe {

double resident_mb();     // this process's resident set, from /proc/self/statm
double device_used_mb();  // total - free on the current CUDA device; 0 without one

}  // namespace vidpipe
