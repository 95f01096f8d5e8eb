// metrics.listen's health answers, made from the same report snapshot as /metrics:
// /readyz (a load balancer or Kubernetes sends traffic, or counts the pod ready, only when
// it says so) and /inputs (each input's figures, its URL redacted as in the report).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace vidpipe {

struct Readiness {
  bool ready = false;
  std::string why;  // what is missing, when not ready
};

// Ready: every input has delivered a frame, none is reconnecting, and frames came out in the
// last few seconds (the report's recent_fps). A serving process's report (kind "service")
// is ready with no inputs at all, and then per pipeline: running, through its first frame
// and still delivering, or ended.
Readiness readiness_of(const nlohmann::json& report);

// [{"id", "state", "uri", "decoder", "live", "frames_decoded", "frames_written",
//   "frames_dropped", "fps", "reconnects", "decode_errors"}], one per input, from the report's
// inputs[] (a service's report has them so already, with its ids, outputs and errors).
nlohmann::json inputs_of(const nlohmann::json& report);

}  // namespace vidpipe
