// The control.* keys: who may add and remove inputs over metrics.listen while the run
// serves (`vidpipe serve`, or `input.keep_running`), and what it keeps across a restart.
// Declared in control_config.cpp.
#pragma once
#include <string>

namespace vidpipe {

template <class S>
class Keys;

struct ControlConfig {
  std::string token_file;  // the bearer token's file; empty: $VIDPIPE_CONTROL_TOKEN, or no control
  std::string state_file;  // inputs added over HTTP, kept for a restart; empty: none
  std::string shard;       // "k/N": this process takes the inputs whose index mod N is k; empty: all
};

// "k/N" split; k may be `hostname`: the number after the last '-' of the host's name, as
// a Kubernetes StatefulSet names its pods (vidpipe-0, vidpipe-1, ...).
struct Shard {
  int index = 0, count = 1;
};
// Throws a std::string (the key loader's way of saying what is wrong) for a malformed shard.
Shard parse_shard(const std::string& text, const std::string& hostname);

void declare_keys(Keys<ControlConfig>& keys);

}  // namespace vidpipe
