// What `vidpipe --version` prints: this build and the libraries and GPU it runs with.
#pragma once
#include <string>

namespace vidpipe {

std::string version_text();
// "0.1.0 (<git describe>)": what the report records as vidpipe_version.
std::string version_number();

}  // namespace vidpipe
