// Owning pointers for FFmpeg objects and AV_CHECK for its int-returning calls.
#pragma once
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>
}

#include <memory>
#include <string>

namespace vidpipe {

std::string av_error_string(int err);

struct AvFrameDeleter { void operator()(AVFrame* f) const { av_frame_free(&f); } };
struct AvPacketDeleter { void operator()(AVPacket* p) const { av_packet_free(&p); } };
struct AvCodecContextDeleter { void operator()(AVCodecContext* c) const { avcodec_free_context(&c); } };
// Also closes a named pipe's read end that open_input handed FFmpeg as pipe:N (kept in the
// context's opaque as fd + 1): FFmpeg's pipe protocol never closes the descriptor it is given.
struct AvInputDeleter { void operator()(AVFormatContext* f) const; };
struct AvBufferDeleter { void operator()(AVBufferRef* b) const { av_buffer_unref(&b); } };
struct AvDictionaryDeleter { void operator()(AVDictionary* d) const { av_dict_free(&d); } };

using AvFramePtr = std::unique_ptr<AVFrame, AvFrameDeleter>;
using AvPacketPtr = std::unique_ptr<AVPacket, AvPacketDeleter>;
using AvCodecContextPtr = std::unique_ptr<AVCodecContext, AvCodecContextDeleter>;
using AvInputPtr = std::unique_ptr<AVFormatContext, AvInputDeleter>;
using AvBufferPtr = std::unique_ptr<AVBufferRef, AvBufferDeleter>;
using AvDictionaryPtr = std::unique_ptr<AVDictionary, AvDictionaryDeleter>;
struct SwsContextDeleter { void operator()(SwsContext* c) const { sws_freeContext(c); } };
using SwsContextPtr = std::unique_ptr<SwsContext, SwsContextDeleter>;

AvFramePtr make_frame();
AvPacketPtr make_packet();

}  // namespace vidpipe

// Throws ErrorType("<context>: <FFmpeg's message>") when an FFmpeg call fails.
#define AV_CHECK_AS(ErrorType, call, context)                                    \
  do {                                                                           \
    const int vp_av_status_ = (call);                                            \
    if (vp_av_status_ < 0)                                                       \
      throw ErrorType(std::string(context) + ": " + ::vidpipe::av_error_string(vp_av_status_)); \
  } while (0)
