// One case of the hostile suite (docs/RELIABILITY.md), as written in tests/hostile/*.yaml:
// what a hostile or careless user does, and what vidpipe must do about it. Cases are data
// so that the suite can grow by the hundred without a test function each; the few that
// need a program of their own beside the run (a silent server, a signal at a moment) say
// so with `peer` and `signal`.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace vidpipe::test {

struct CaseSignal {
  int number = 0;      // SIGINT, SIGTERM, SIGHUP
  std::string when;    // sent once the run's stderr matches this regex ("" = at once)
};

struct HostileCase {
  std::string suite, name, file;  // the suite is the YAML file's `suite`; file for messages
  std::string args;               // after `vidpipe`: `run --input in.mp4 ...` ({tokens}, see expand)
  std::vector<std::string> setup; // bash lines run in the case's folder before the run
  std::string peer;               // bash run beside the vidpipe run, killed after it
  std::string stdin_from;         // bash whose stdout is vidpipe's stdin
  CaseSignal signal;
  int exit_code = 0;
  std::string says;               // in the one `vidpipe: ...` line (exit != 0) or on stderr
  std::string prints;             // on stdout
  std::vector<std::string> writes;   // files the run leaves in its folder, besides what setup made
  std::vector<std::string> changes;  // files of the folder it may change (else byte for byte as before)
  std::map<std::string, int> frames; // an output and how many frames it must decode to
  std::string report_file = "report.json";
  std::map<std::string, nlohmann::json> report;  // JSON pointer -> value the report holds
  std::vector<std::string> hidden;   // never shown, never written (secrets)
  double within_s = 30;
  bool no_gpu = false;  // what a machine without a GPU shows: skipped where there is one
};

// Every case of every tests/hostile/*.yaml under `folder`, in file order.
std::vector<HostileCase> load_cases(const std::string& folder);

// Runs the case in a fresh folder of its own and checks everything it asks for (gtest
// assertions).
void run_case(const HostileCase& c);

}  // namespace vidpipe::test
