// The report of a run, made from its parts: at the end (gather, in pipeline.cpp) and
// while it goes on (metrics.listen's /report and /metrics), so the two say the same.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "metrics/memory_usage.hpp"
#include "metrics/run_metrics.hpp"
#include "run/parts.hpp"

namespace vidpipe {

// What the caller knows that the parts do not: the program's version, and whether the
// run has ended.
struct ReportStamp {
  std::string program_version;
  bool ended = false;  // the report written at the end, not the live one
};

// Every figure but `error`. Safe beside the running pipeline: it reads the metrics under
// their lock and the counters the stage threads keep as atomics.
nlohmann::json run_report(const PipelineParts& parts, const Summary& summary, const MemorySample& memory_now,
                          const ReportStamp& stamp);

// The report as far as the run has got, for the metrics endpoint.
nlohmann::json live_report(const PipelineParts& parts, const ReportStamp& stamp);

// The mode as it ran (mode_label of the config, with an NVDEC that did not start named).
std::string mode_as_run(const PipelineParts& p);

}  // namespace vidpipe
