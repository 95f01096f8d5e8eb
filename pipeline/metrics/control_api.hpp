// What metrics.listen's mutating calls (POST /inputs, DELETE /inputs/{id}) do when the run
// serves (service/input_service.hpp implements it). A plain run has none and answers 405.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace vidpipe {

class ControlApi {
 public:
  struct Answer {
    int status = 200;
    nlohmann::json body;
  };
  virtual ~ControlApi() = default;
  // A token is configured at all (else every mutating call is refused with 403).
  virtual bool token_configured() const = 0;
  // `authorization`: the request's Authorization header as sent.
  virtual bool authorised(const std::string& authorization) const = 0;
  // `body`: the request's JSON, {"uri": "...", "id": "..." (optional)}.
  virtual Answer add_input(const std::string& body) = 0;
  virtual Answer remove_input(const std::string& id) = 0;
};

}  // namespace vidpipe
