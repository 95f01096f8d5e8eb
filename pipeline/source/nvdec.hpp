// NVDEC through FFmpeg's CUDA hwaccel: the decoder writes NV12 frames into device
// memory, so the upload stage becomes a device-to-device copy. FFmpeg shares the
// CUDA primary context with the runtime (its device pointers are ours) and copies
// each decoded picture out of NVDEC on a stream of ours, which the reader waits on
// before it hands the frame on.
#pragma once
#include <memory>
#include <string>

#include "memory/av_raii.hpp"
#include "memory/cuda_raii.hpp"

namespace vidpipe {

class NvdecDecoder {
 public:
  // Null, with `why` set, when this FFmpeg, GPU or codec cannot decode on NVDEC.
  static std::unique_ptr<NvdecDecoder> try_create(const AVCodec* codec, int cuda_device, std::string& why);

  // Makes `decoder` output CUDA frames; call before avcodec_open2.
  void attach(AVCodecContext* decoder, int extra_frames);
  // Blocks until the frame just received is in device memory.
  void wait_frame() const;

 private:
  NvdecDecoder() = default;
  static AVPixelFormat pick_cuda(AVCodecContext* ctx, const AVPixelFormat* offered);
  AvBufferPtr device_;
  std::unique_ptr<cuda::Stream> stream_;
};

}  // namespace vidpipe
