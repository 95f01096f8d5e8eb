// NVDEC through FFmpeg's CUDA hwaccel: the decoder writes NV12 frames into device
// memory, so the upload stage becomes a device-to-device copy. Every NVDEC input of a
// GPU shares one FFmpeg CUDA device on the CUDA primary context with the runtime (its
// device pointers are ours), and each reader thread has FFmpeg map its pictures out of
// NVDEC on that thread's own default stream, which it waits on before it hands the frame on.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "memory/av_raii.hpp"
#include "memory/cuda_raii.hpp"

namespace vidpipe {

class NvdecDecoder {
 public:
  // Null, with `why` set, when this FFmpeg, GPU or codec cannot decode on NVDEC.
  static std::unique_ptr<NvdecDecoder> try_create(const AVCodec* codec, int cuda_device, std::string& why);
  // FFmpeg CUDA devices open now (one per GPU in use) and NVDEC sessions started so far
  // (FFmpeg starts one each time it sets a decoder up): for the tests and the report.
  static int devices_open();
  static std::int64_t sessions_started();

  // Makes `decoder` output CUDA frames; call before avcodec_open2.
  void attach(AVCodecContext* decoder, int extra_frames);
  // Blocks until the frame just received is in device memory.
  void wait_frame() const;
  // The frame just received, copied out of NVDEC's surfaces into device memory of our own,
  // once it is there: the surface goes back to the decoder at once, so a caller may hold
  // any number of frames (a split file's decoder running a segment ahead), not only the
  // few NVDEC has (FFmpeg 5's frames are NVDEC's mapped surfaces).
  AvFramePtr copy_out(const AVFrame& mapped);

 private:
  NvdecDecoder() = default;
  static AVPixelFormat pick_cuda(AVCodecContext* ctx, const AVPixelFormat* offered);
  std::shared_ptr<const AvBufferPtr> device_;  // shared by every input on this GPU
  AvBufferPtr own_frames_;  // copy_out's frames: FFmpeg's CUDA pool, which grows as needed
};

}  // namespace vidpipe
