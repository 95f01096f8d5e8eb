// control.state_file: the inputs added over HTTP, kept so that a restarted process (a pod
// killed mid-run) adds them again. JSON, {"inputs": [{"id", "uri"}, ...]}, replaced whole on
// every change (base/output_file.hpp) with mode 0600: the URLs may hold passwords.
#pragma once
#include <string>
#include <vector>

namespace vidpipe {

struct KeptInput {
  std::string id, uri;
};

// The kept inputs; none when the file does not exist yet. Throws ConfigError naming
// control.state_file when it exists but cannot be read or is not such a list.
std::vector<KeptInput> load_kept_inputs(const std::string& path);
// Throws OutputError naming control.state_file when it cannot be written.
void save_kept_inputs(const std::string& path, const std::vector<KeptInput>& inputs);

}  // namespace vidpipe
