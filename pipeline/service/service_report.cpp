#include "service/service_report.hpp"

#include <cmath>
#include <filesystem>

#include "base/redact.hpp"
#include "metrics/memory_usage.hpp"

namespace vidpipe {
namespace {

// A pipeline's line in inputs[]: what it is, and its input's figures from its report.
nlohmann::json input_line(const PipelineView& p) {
  nlohmann::json line{{"id", p.id}, {"uri", redacted_uri(p.uri)}, {"state", p.state},
                      {"output", p.output.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.output)}};
  if (!p.error.empty()) line["error"] = redacted_text(p.error);
  const nlohmann::json inputs = p.report.is_object() ? p.report.value("inputs", nlohmann::json::array())
                                                     : nlohmann::json::array();
  const nlohmann::json input = inputs.empty() ? nlohmann::json::object() : inputs.front();
  for (const char* key : {"decoder", "live", "frames_decoded", "frames_written", "frames_dropped", "fps", "reconnects",
                          "reconnecting", "decode_errors"})
    line[key] = input.value(key, nlohmann::json());
  line["recent_fps"] = p.report.is_object() ? p.report.value("recent_fps", 0.0) : 0.0;
  return line;
}

double number_in(const nlohmann::json& report, const char* key) {
  if (!report.is_object()) return 0;
  const auto it = report.find(key);
  return it != report.end() && it->is_number() ? it->get<double>() : 0;
}

// Entries of a /proc folder: the process's threads or open descriptors.
nlohmann::json entries_in(const char* folder) {
  std::error_code unreadable;
  std::int64_t count = 0;
  for (auto it = std::filesystem::directory_iterator(folder, unreadable);
       !unreadable && it != std::filesystem::directory_iterator(); it.increment(unreadable))
    ++count;
  return unreadable ? nlohmann::json(nullptr) : nlohmann::json(count);
}

}  // namespace

nlohmann::json process_json() {
  const double device = device_used_mb();
  return {{"rss_mib", resident_mb()}, {"device_mib", std::isnan(device) ? nlohmann::json(nullptr) : nlohmann::json(device)},
          {"threads", entries_in("/proc/self/task")}, {"open_files", entries_in("/proc/self/fd")}};
}

nlohmann::json service_report(const std::vector<PipelineView>& pipelines, const std::string& program_version,
                              bool stopped) {
  nlohmann::json inputs = nlohmann::json::array(), reports = nlohmann::json::object();
  double fps = 0, recent_fps = 0;
  std::int64_t frames = 0, dropped = 0;
  for (const PipelineView& p : pipelines) {
    inputs.push_back(input_line(p));
    reports[p.id] = p.report;
    fps += number_in(p.report, "fps");
    recent_fps += number_in(p.report, "recent_fps");
    frames += static_cast<std::int64_t>(number_in(p.report, "frames"));
    dropped += static_cast<std::int64_t>(number_in(p.report, "frames_dropped"));
  }
  return {{"kind", "service"}, {"vidpipe_version", program_version}, {"outcome", stopped ? "stopped" : "running"},
          {"frames", frames}, {"fps", fps}, {"recent_fps", recent_fps}, {"frames_dropped", dropped},
          {"inputs", inputs}, {"pipelines", reports}, {"process", process_json()}};
}

}  // namespace vidpipe
