// Secrets in URLs stay out of everything the run shows or writes: logs, messages, the
// report, the metrics labels, the window title. An RTSP camera's user:password was printed
// in every retry warning, three times in the report and in /metrics' `uri` label.
#pragma once
#include <string>
#include <string_view>

namespace vidpipe {

// `uri` with the password of its user info and the values of secret-looking query
// parameters (password, token, key, secret, auth, signature, ...) replaced by "***":
// rtsp://admin:hunter2@cam/live?token=abc -> rtsp://admin:***@cam/live?token=***.
// Paths and URLs without secrets come back unchanged.
std::string redacted_uri(std::string_view uri);

// Free text (a library's log line) with every URL in it redacted as above; a URL runs from
// its scheme to the next space or quote.
std::string redacted_text(std::string_view text);

}  // namespace vidpipe
