#include "memory/av_raii.hpp"

#include <unistd.h>

#include <cstdint>
#include <new>

namespace vidpipe {

std::string av_error_string(int err) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(err, buf, sizeof buf);
  return buf;
}

void AvInputDeleter::operator()(AVFormatContext* f) const {
  const std::intptr_t pipe_fd = f ? reinterpret_cast<std::intptr_t>(f->opaque) - 1 : -1;
  avformat_close_input(&f);
  if (pipe_fd >= 0) ::close(static_cast<int>(pipe_fd));
}

AvFramePtr make_frame() {
  AvFramePtr f(av_frame_alloc());
  if (!f) throw std::bad_alloc();
  return f;
}

AvPacketPtr make_packet() {
  AvPacketPtr p(av_packet_alloc());
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace vidpipe
