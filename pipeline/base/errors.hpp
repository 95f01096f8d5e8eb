// Error kinds the CLI maps to exit codes (see README "Exit codes").
#pragma once
#include <stdexcept>
#include <string>

namespace vidpipe {

// A config file, --set override or command-line value is wrong. Exit code 2.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The input cannot be opened or decoded. Exit code 3.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The output cannot be written. Exit code 3 as well: it is a file the user named.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A signal (or q) arrived before the run could start, e.g. while a live input was still
// connecting. Exit code 130, as for an interrupted run.
struct StoppedBeforeStart : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace vidpipe
