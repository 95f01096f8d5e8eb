// What a serving process answers for all its pipelines at once: /report, /inputs,
// /readyz and /metrics are made from this one JSON (kind "service"), as a run's are
// made from its report.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace vidpipe {

// One pipeline as the service sees it: its id, input, state ("starting", "running",
// "ended", "stopped", "failed"), output and error, and its own report (live or final; null
// before it has one).
struct PipelineView {
  std::string id, uri, state, output, error;
  nlohmann::json report;
};

// {"kind": "service", "vidpipe_version", "outcome", "frames", "fps", "recent_fps",
//  "frames_dropped", "inputs": [...], "pipelines": {id: report}, "process": {...}}: the
// totals are sums over the pipelines; inputs[] is each pipeline's line (its uri redacted).
nlohmann::json service_report(const std::vector<PipelineView>& pipelines, const std::string& program_version,
                              bool stopped);

// What the whole process holds now, so that inputs added and removed for days can be seen
// not to leak: {"rss_mib", "device_mib" (null without a device), "threads", "open_files"}.
nlohmann::json process_json();

}  // namespace vidpipe
