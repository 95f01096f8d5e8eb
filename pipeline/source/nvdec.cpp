#include "source/nvdec.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_cuda.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
}

namespace vidpipe {
namespace {

// copy_out's FFmpeg calls fail for want of device memory: a CUDA error (exit code 4).
void check_device_frame(int status, const char* what) {
  if (status < 0)
    throw CudaError(cudaErrorMemoryAllocation, std::string("NVDEC: ") + what + ": " + av_error_string(status));
}

std::atomic<std::int64_t> sessions_started_count{0};

struct SharedDevices {
  std::mutex lock;
  std::map<int, std::weak_ptr<const AvBufferPtr>> by_gpu;
};

SharedDevices& shared_devices() {
  static SharedDevices devices;
  return devices;
}

// One FFmpeg CUDA device for all the inputs on a GPU, as ffmpeg's own -hwaccel_device
// gives all its decoders, alive while a decoder holds it (not until exit, after CUDA's
// teardown). Its stream is the calling thread's default stream: FFmpeg takes the device's
// stream when it starts a session and maps every picture on it, so each reader thread maps,
// copies and waits on a stream of its own, whichever thread started the session.
std::shared_ptr<const AvBufferPtr> shared_cuda_device(int cuda_device, std::string& why) {
  SharedDevices& devices = shared_devices();
  const std::lock_guard hold(devices.lock);
  if (auto device = devices.by_gpu[cuda_device].lock()) return device;
  AVDictionary* raw_opts = nullptr;
  av_dict_set(&raw_opts, "primary_ctx", "1", 0);
  AvDictionaryPtr opts(raw_opts);
  AVBufferRef* device = nullptr;
  const int ret = av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_CUDA, std::to_string(cuda_device).c_str(),
                                         opts.get(), 0);
  if (ret < 0) {
    why = "cannot open the CUDA device for NVDEC: " + av_error_string(ret);
    return nullptr;
  }
  auto* hw = reinterpret_cast<AVHWDeviceContext*>(device->data);
  static_cast<AVCUDADeviceContext*>(hw->hwctx)->stream = CU_STREAM_PER_THREAD;
  auto shared = std::make_shared<const AvBufferPtr>(device);
  devices.by_gpu[cuda_device] = shared;
  return shared;
}

}  // namespace

int NvdecDecoder::devices_open() {
  SharedDevices& devices = shared_devices();
  const std::lock_guard hold(devices.lock);
  return static_cast<int>(std::count_if(devices.by_gpu.begin(), devices.by_gpu.end(),
                                        [](const auto& entry) { return !entry.second.expired(); }));
}

std::int64_t NvdecDecoder::sessions_started() { return sessions_started_count; }

std::unique_ptr<NvdecDecoder> NvdecDecoder::try_create(const AVCodec* codec, int cuda_device, std::string& why) {
  bool supported = false;
  for (int i = 0;; ++i) {
    const AVCodecHWConfig* hw = avcodec_get_hw_config(codec, i);
    if (!hw) break;
    if (hw->device_type == AV_HWDEVICE_TYPE_CUDA && (hw->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
      supported = true;
  }
  if (!supported) {
    why = std::string("this FFmpeg has no NVDEC decoding for ") + codec->name;
    return nullptr;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices <= cuda_device) {
    cudaGetLastError();
    why = "no CUDA device " + std::to_string(cuda_device);
    return nullptr;
  }
  // FFmpeg retains the primary context only if it schedules with blocking sync, and
  // refuses it ("already active with incompatible flags") when something else made it
  // first with the default: set the flags, as the pipeline's start does.
  cuda::start_device(cuda_device);
  std::unique_ptr<NvdecDecoder> d(new NvdecDecoder);
  d->device_ = shared_cuda_device(cuda_device, why);
  if (!d->device_) return nullptr;
  CUDA_CHECK(cudaSetDevice(cuda_device));
  return d;
}

AVPixelFormat NvdecDecoder::pick_cuda(AVCodecContext*, const AVPixelFormat* offered) {
  for (const AVPixelFormat* f = offered; *f != AV_PIX_FMT_NONE; ++f)
    if (*f == AV_PIX_FMT_CUDA) {
      ++sessions_started_count;
      return *f;
    }
  return offered[0];  // not for this stream (e.g. a profile NVDEC lacks): software
}

void NvdecDecoder::attach(AVCodecContext* decoder, int extra_frames) {
  decoder->hw_device_ctx = av_buffer_ref(device_->get());
  if (!decoder->hw_device_ctx) throw std::bad_alloc();
  decoder->get_format = &NvdecDecoder::pick_cuda;
  // The pipeline holds decoded frames in flight; without these the surface pool runs dry.
  decoder->extra_hw_frames = extra_frames;
}

void NvdecDecoder::wait_frame() const { CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread)); }

AvFramePtr NvdecDecoder::copy_out(const AVFrame& mapped) {
  const auto* nvdec_frames = reinterpret_cast<const AVHWFramesContext*>(mapped.hw_frames_ctx->data);
  if (!own_frames_) {
    own_frames_.reset(av_hwframe_ctx_alloc(device_->get()));
    if (!own_frames_) throw std::bad_alloc();
    auto* frames = reinterpret_cast<AVHWFramesContext*>(own_frames_->data);
    frames->format = AV_PIX_FMT_CUDA;
    frames->sw_format = nvdec_frames->sw_format;
    frames->width = nvdec_frames->width;
    frames->height = nvdec_frames->height;
    check_device_frame(av_hwframe_ctx_init(own_frames_.get()), "device frames for copies");
  }
  AvFramePtr own = make_frame();
  check_device_frame(av_hwframe_get_buffer(own_frames_.get(), own.get(), 0), "a device frame for a copy");
  check_device_frame(av_frame_copy_props(own.get(), &mapped), "frame properties");
  own->width = mapped.width;
  own->height = mapped.height;
  const AVPixFmtDescriptor* desc = av_pix_fmt_desc_get(nvdec_frames->sw_format);
  int row_bytes[4] = {};
  check_device_frame(av_image_fill_linesizes(row_bytes, nvdec_frames->sw_format, mapped.width), "plane widths");
  for (int p = 0; p < av_pix_fmt_count_planes(nvdec_frames->sw_format); ++p) {
    const int rows = p == 0 ? mapped.height : AV_CEIL_RSHIFT(mapped.height, desc->log2_chroma_h);
    CUDA_CHECK(cudaMemcpy2DAsync(own->data[p], own->linesize[p], mapped.data[p], mapped.linesize[p],
                                 row_bytes[p], rows, cudaMemcpyDeviceToDevice, cudaStreamPerThread));
  }
  // One wait covers FFmpeg's mapping of the picture and the copy: both are on this thread's stream.
  wait_frame();
  return own;
}

}  // namespace vidpipe
