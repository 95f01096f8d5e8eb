// What `vidpipe probe` says of an input's container and every stream in it (audio,
// subtitles and data too), as JSON: the fields ffprobe's users look for.
#pragma once
#include <nlohmann/json.hpp>

#include <atomic>
#include <string>

namespace vidpipe {

// {"format": {...}, "streams": [...]}; unknown figures are null, never 0. Throws InputError.
nlohmann::json probe_streams(const std::string& uri, const std::atomic<bool>* stop);

// The same as indented lines of text.
std::string streams_text(const nlohmann::json& probed);

}  // namespace vidpipe
