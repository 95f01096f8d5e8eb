// Runs the vidpipe binary as a user would ($VIDPIPE_BIN, else this build's).
#pragma once
#include <nlohmann/json.hpp>
#include <cstdlib>
#include <string>

namespace vidpipe::test {

struct CommandResult {
  int code;
  std::string output;  // stdout + stderr
};

// `run` and `bench` get the shipped config (default.yaml / bench.yaml) unless the
// test names another, and the fetched model wherever the test runs from.
CommandResult vidpipe(std::string args);
// The same command line, for running it in the background.
std::string vidpipe_command_line(std::string args);

nlohmann::json read_json(const std::string& path);

// An environment variable set for the commands a test runs, unset after it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

}  // namespace vidpipe::test
