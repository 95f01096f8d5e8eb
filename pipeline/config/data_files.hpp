// Where the files vidpipe ships with (configs, the detector's weights, the bundled clip)
// are found, so that `vidpipe run` works from any directory, built or installed.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace vidpipe {

// The folders searched after the working directory, in order: $VIDPIPE_DATA, the installed
// data folder beside the executable (<prefix>/share/vidpipe for <prefix>/bin/vidpipe), and,
// for a binary in its build folder, the source tree it was built from.
std::vector<std::filesystem::path> data_roots();

// `path` as given when it is absolute or exists from the working directory; else the first
// data root that holds it; else as given (so the error that follows names what was asked).
std::string find_data_file(const std::string& path);

}  // namespace vidpipe
