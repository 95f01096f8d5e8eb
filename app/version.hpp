// What `vidpipe --version` prints: this build and the libraries and GPU it runs with.
#pragma once
#include <string>

namespace vidpipe {

std::string version_text();

}  // namespace vidpipe
