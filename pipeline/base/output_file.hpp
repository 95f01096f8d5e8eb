// An output the run writes (report, trace, detections, chart data) appears whole or not at
// all: the bytes go to a temporary name beside it (temporary_path_for) and are renamed over
// it only once written and closed. A failure removes the temporary and says which file and
// why (a full disk, a read-only folder). A path that exists and is not a regular file (a
// FIFO, /dev/null, /dev/stdout) is written in place: renaming over it would replace the
// special file (as root, /dev/null itself).
#pragma once
#include <string>
#include <string_view>

#include "base/unique_fd.hpp"

namespace vidpipe {

// `<path>.<pid>.part`, shortened with a hash where the name would pass 255 bytes.
std::string temporary_path_for(const std::string& path);
// True for a path that exists and is neither a regular file nor a folder (a FIFO, a device).
bool is_special_file(const std::string& path);

// A named pipe opened for writing blocks until something reads it; with nothing there the
// run would hang at its end (the report) or its start (the video). Waits up to
// `fifo_reader_wait_s` for a reader, then throws OutputError naming the pipe. Returns the
// write end, blocking again, or an empty UniqueFd for anything that is not a FIFO. The
// caller writes through it, or keeps it open until its own writer is open: a probe closed
// at once would be the last writer going, and the reader would take it for the end.
constexpr double fifo_reader_wait_s = 10.0;
UniqueFd open_fifo_writer(const std::string& path, const std::string& what);

class OutputFile {
 public:
  // `what` names the output in errors, e.g. "report" or "metrics.detections". `mode`: the
  // new file's permissions before the umask (0600 for one that may hold passwords).
  OutputFile(std::string path, std::string what, unsigned mode = 0666);
  ~OutputFile();  // not committed: the temporary goes
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view bytes);  // buffered; throws OutputError on a failed write
  void commit();                       // flushes, closes and renames into place
  const std::string& path() const { return path_; }

 private:
  void flush_buffer();
  [[noreturn]] void fail(int error);

  std::string path_, what_, temp_;
  bool in_place_ = false;  // a special file: no temporary
  int fd_ = -1;
  std::string buffer_;
};

// The whole of `text` as `path`, through an OutputFile.
void write_output_file(const std::string& path, const std::string& what, std::string_view text,
                       unsigned mode = 0666);

}  // namespace vidpipe
