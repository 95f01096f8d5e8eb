// The end-of-run JSON report and the summary printed to stdout.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "config/config.hpp"
#include "metrics/memory_usage.hpp"
#include "metrics/run_metrics.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

// Raised whenever a key is renamed or removed or changes meaning (docs/REPORT.md).
constexpr int report_schema_version = 3;

// How a run ended, the one word a script acts on (the report's `outcome`; `finished` is
// true only for `completed`): an interrupted or failed run must not read as a finished one.
enum class Outcome { running, completed, interrupted, failed, not_started };
std::string to_string(Outcome outcome);
// Sets `outcome` and `finished` together so the two never disagree.
void stamp_outcome(nlohmann::json& report, Outcome outcome);

nlohmann::json make_report(const Config& config, const VideoInfo& input, const std::string& device,
                           const std::string& mode, const Summary& summary, std::int64_t decode_errors);

// The memory samples and the two a soak compares: after the warm-up and at the end.
nlohmann::json memory_json(const MemoryLog& log, const MemorySample& at_end);

void write_report(const nlohmann::json& report, const std::string& path);

// The report of a run that ended before its first frame (an input that cannot be opened, a
// stop while it opened): `started: false` and the error, so that no earlier run's report
// is left under its name to be read as this one's.
nlohmann::json unstarted_report(const std::string& error, bool interrupted, const std::string& program_version);

// What else the run did that a user should hear of in the summary.
struct SummaryNotes {
  bool detecting = true;     // gpu.inference: with it off, say so rather than "0 faces"
  std::int64_t reconnects = 0;
};
// The measured window beside the whole run, and a note when the window is the lesser part.
std::string window_line(const Summary& s);
std::string summary_text(const std::string& mode, const std::string& device, const Summary& s,
                         const SummaryNotes& notes = {});

}  // namespace vidpipe
