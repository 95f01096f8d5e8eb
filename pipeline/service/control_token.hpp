// The bearer token that guards the control endpoint's mutating calls (POST and DELETE on
// /inputs). Read once at the start; compared in constant time; never logged.
#pragma once
#include <string>

#include "service/control_config.hpp"

namespace vidpipe {

class ControlToken {
 public:
  // From control.token_file, else $VIDPIPE_CONTROL_TOKEN, else none (every mutating call is
  // refused). Throws ConfigError naming control.token_file when the file cannot be read or
  // holds no token.
  static ControlToken load(const ControlConfig& control);

  bool configured() const { return !token_.empty(); }
  // `authorization`: the request's Authorization header, as sent.
  bool accepts(const std::string& authorization) const;

 private:
  std::string token_;
};

}  // namespace vidpipe
