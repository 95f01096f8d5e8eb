#include "memory/av_raii.hpp"

#include <new>

namespace vidpipe {

std::string av_error_string(int err) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(err, buf, sizeof buf);
  return buf;
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
