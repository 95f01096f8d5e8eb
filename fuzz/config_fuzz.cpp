// Any bytes as a config file: load_config may reject them (ConfigError), never crash,
// hang or throw anything else.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "config/config.hpp"
#include "base/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/vidpipe-fuzz-config-" + std::to_string(getpid()) + ".yaml";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  try {
    vidpipe::load_config(path, {"input.uri=udp://127.0.0.1:1", "gpu.inference=false"});
  } catch (const vidpipe::ConfigError&) {
  }
  return 0;
}
