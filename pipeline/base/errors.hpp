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

// An FFmpeg call (open, read, seek) that the run's own stop cut short through the input's
// interrupt callback: AVERROR_EXIT then says nothing about the input, so the run ends as
// an interrupted run (exit 130, outputs and report finalised), never as an input error.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace vidpipe
