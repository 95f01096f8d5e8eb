// vidpipe's log: on stderr (stdout is the summary's or --json's), FFmpeg's own lines routed
// through it, and a progress line's row cleared before a log line is written on it.
#pragma once

namespace vidpipe {

// -v: FFmpeg's info lines too; -q: only warnings and errors.
void set_up_logging(bool verbose, bool quiet);

}  // namespace vidpipe
