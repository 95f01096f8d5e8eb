// VideoReader with NVDEC: whether the session really started (else a CPU decoder takes
// over), what it writes on the device, and its frames handed on or copied out.
#include "source/video_reader.hpp"

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "base/errors.hpp"
#include "source/nvdec.hpp"

namespace vidpipe {

void VideoReader::confirm_nvdec(const AVCodec* codec) {
  AvFramePtr first = make_frame();
  // No pool yet: a software frame here gets FFmpeg's own buffer (get_pool_buffer).
  if (!receive_into(first.get())) return;  // nothing decodes: next() will say so
  if (first->format == AV_PIX_FMT_CUDA) {
    nvdec_->wait_frame();  // mapped on this (opening) thread's stream, read on the reader's
    primed_ = std::move(first);
    return;
  }
  // FFmpeg drops to software by itself when the NVDEC session cannot start (no free
  // session, too many surfaces) and would then decode on the one thread NVDEC mode uses.
  spdlog::warn("'{}': NVDEC did not start for this input; decoding it on the CPU with {} threads instead",
               shown_uri_, options_.reader.threads > 0 ? std::to_string(options_.reader.threads) : "FFmpeg's choice of");
  first.reset();
  nvdec_failed_ = true;
  decoder_.reset();  // before nvdec_: the decoder holds NVDEC's frames
  nvdec_.reset();
  if (!options_.live) {
    // A file starts again from the top, so the CPU decoder sees every frame. A live
    // source goes on: the new decoder starts at its next keyframe.
    check_io(options_.segments.active() ? seek_to_segment_start()
                                        : av_seek_frame(input_.get(), stream_index_, 0, AVSEEK_FLAG_BACKWARD),
             "'" + shown_uri_ + "': cannot restart after NVDEC failed (seek failed)");
    input_done_ = flushed_ = false;
    packets_this_pass_ = 0;
  }
  open_decoder(codec, input_->streams[stream_index_]->codecpar);
}

AVPixelFormat VideoReader::nvdec_format() const {
  if (!primed_ || !primed_->hw_frames_ctx) return AV_PIX_FMT_NV12;
  return reinterpret_cast<const AVHWFramesContext*>(primed_->hw_frames_ctx->data)->sw_format;
}

AvFramePtr VideoReader::from_device(AvFramePtr decoded) {
  const auto* frames = reinterpret_cast<const AVHWFramesContext*>(decoded->hw_frames_ctx->data);
  if (frames->sw_format != pool_format_)
    throw InputError(fmt::format("'{}': frame {}: NVDEC changed its output from {} to {}; use reader.decoder: cpu",
                                 shown_uri_, next_index_, av_get_pix_fmt_name(pool_format_),
                                 av_get_pix_fmt_name(frames->sw_format)));
  if (decoded->width != layout_.width || decoded->height != layout_.height)
    throw InputError(fmt::format("'{}': frame {} changes size from {}x{} to {}x{} (mid-stream size changes are "
                                 "not supported: the frames before it are kept)",
                                 shown_uri_, next_index_, layout_.width, layout_.height, decoded->width,
                                 decoded->height));
  if (copy_out_of_nvdec_) return nvdec_->copy_out(*decoded);
  nvdec_->wait_frame();
  return decoded;
}

}  // namespace vidpipe
