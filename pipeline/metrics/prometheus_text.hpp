// The report (make_report's JSON, as far as the run has got) in Prometheus's text
// exposition format, for metrics.listen's /metrics. One source for both endpoints: what
// /report says and what /metrics says cannot disagree.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace vidpipe {

std::string prometheus_text(const nlohmann::json& report);

}  // namespace vidpipe
