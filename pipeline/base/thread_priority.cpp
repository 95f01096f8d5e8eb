#include "base/thread_priority.hpp"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace vidpipe {
namespace {

id_t this_thread_id() { return static_cast<id_t>(syscall(SYS_gettid)); }

}  // namespace

int this_thread_niceness() {
  errno = 0;  // getpriority's -1 is also a nice value
  const int nice = getpriority(PRIO_PROCESS, this_thread_id());
  return errno == 0 ? nice : 0;
}

void make_this_thread_nicer(int by) {
  if (by <= 0) return;
  const int nicer = std::min(19, this_thread_niceness() + by);
  // Failing leaves the thread as it was: decoding still works, only less politely.
  if (setpriority(PRIO_PROCESS, this_thread_id(), nicer) != 0)
    spdlog::debug("cannot make a decoder thread nicer: {}", std::strerror(errno));
}

}  // namespace vidpipe
