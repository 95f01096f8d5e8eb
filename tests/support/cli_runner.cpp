#include "cli_runner.hpp"

#include <cstdlib>
#include <fstream>

#include "face_assets.hpp"
#include "test_media.hpp"

namespace vidpipe::test {

std::string vidpipe_command_line(std::string args) {
  const char* env = std::getenv("VIDPIPE_BIN");
  const std::string binary = env ? env : VIDPIPE_BIN_DEFAULT;
  for (const char* sub : {"run ", "bench "}) {
    if (args.rfind(sub, 0) != 0) continue;
    if (args.find("--config") == std::string::npos && args.find(" -c ") == std::string::npos)
      args += " --config " + source_dir() + (std::string(sub) == "run " ? "/config/default.yaml" : "/config/bench.yaml");
    // The fetched face model wherever the tests run from, unless the test names a model.
    if (args.find("gpu.model=") == std::string::npos) args += " --set gpu.model=" + model_dir();
  }
  return binary + " " + args;
}

CommandResult vidpipe(std::string args) {
  const std::string log = scratch_dir() + "/run.log";
  const int code = run_command(vidpipe_command_line(std::move(args)) + " >'" + log + "' 2>&1");
  return {code, file_bytes(log)};
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace vidpipe::test
