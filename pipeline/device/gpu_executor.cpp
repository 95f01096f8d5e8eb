// Executor on a CUDA device. Async mode follows cuda-samples' simpleStreams: slot k
// runs on stream k mod N, each slot's H2D, kernels and D2H are queued on its stream
// behind events, and a slot's buffers are reused only once its last event has fired.
// Sync mode is the naive program: blocking cudaMemcpy on the default stream.
extern "C" {
#include <libavutil/hwcontext.h>
}

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <optional>

#include "base/nvtx_range.hpp"
#include "chroma/split_chroma.cuh"
#include "common/fault_trap.cuh"
#include "device/executor.hpp"
#include "device/glyph_atlas.hpp"
#include "device/gpu_slot.hpp"
#include "device/gpu_stage_kernels.hpp"
#include "infer/onnx_detector.hpp"
#include "memory/cuda_raii.hpp"

namespace vidpipe {
namespace {

class GpuExecutor final : public Executor {
 public:
  explicit GpuExecutor(const ExecutorOptions& o) : o_(o) {
    letterboxes_ = letterboxes_for(o);
    cuda::start_device(o.gpu.device);
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, o.gpu.device));
    name_ = prop.name;
    if (o.model) net_.emplace(*o.model, o.gpu.preprocess.width);
    const GlyphAtlas atlas = make_glyph_atlas();
    atlas_pixels_ = cuda::DeviceBuffer(atlas.pixels.size());
    CUDA_CHECK(cudaMemcpy(atlas_pixels_.as(), atlas.pixels.data(), atlas.pixels.size(), cudaMemcpyHostToDevice));
    atlas_ = atlas.view(atlas_pixels_.as());
    const bool sync = o.copy.mode == CopyMode::sync;
    requested_mode_ = o.copy.mode;
    const int stream_count = sync ? 0 : std::max(1, o.copy.streams);
    for (int i = 0; i < stream_count; ++i) streams_.emplace_back();
    // Two slots per stream: one being filled while the other's work runs.
    const int slot_count = sync ? 1 : 2 * stream_count;
    const int batch = sync ? 1 : std::max(1, o.copy.batch_size);
    slots_.resize(slot_count);
    try {
      allocate_slots(sync, stream_count, batch);
    } catch (const CudaError& e) {
      if (e.code() != cudaErrorMemoryAllocation) throw;
      std::size_t free = 0, total = 0;
      cudaMemGetInfo(&free, &total);
      throw CudaError(e.code(), fmt::format("not enough GPU memory for {} slots of batch {} ({} MiB free of {}): "
                                            "lower copy.streams or copy.batch_size",
                                            slot_count, batch, free >> 20, total >> 20));
    }
    // One session per stream: ONNX Runtime queues a session's kernels on the stream it was
    // made with, so each stream's batches run the model behind their own preprocessing (sync
    // mode's too: given no stream, it would use one of its own, unordered with the legacy one).
    if (o.onnx)
      for (int i = 0; i < std::max(1, stream_count); ++i)
        onnx_.push_back(make_stream_onnx_detector(*o.onnx, sync ? cudaStreamLegacy : streams_[i].get(), batch));
    warm_onnx_sessions(sync, batch);
    // Pipeline time 0 on the device: later events are read relative to this one.
    origin_.record(cudaStreamLegacy);
    origin_.synchronize();
    origin_host_ = steady_seconds() - o.clock_origin;
    spdlog::info("GPU {}: {} copy, {} stream(s), {} slot(s), batch {}{}", name_, sync ? "sync" : "async",
                 std::max(1, stream_count), slot_count, batch,
                 onnx_.empty() ? "" : fmt::format(", ONNX model on the {} provider", onnx_[0]->provider()));
  }

  // A session's first run costs one to two seconds (the CUDA provider makes its cuDNN and
  // cuBLAS handles and loads its kernels then; run-on-device.sh onnx-streams' traces), one
  // session after another: in the first batches, that read as a model slowing with more
  // streams over a short measured window. Run here once on zeros, it is start-up time.
  void warm_onnx_sessions(bool sync, int batch) {
    for (std::size_t i = 0; i < onnx_.size(); ++i) {
      const cudaStream_t stream = sync ? cudaStreamLegacy : streams_[i].get();
      const cuda::DeviceBuffer& tensor = slots_.front().tensor;  // nothing runs yet: any slot's will do
      CUDA_CHECK(cudaMemsetAsync(tensor.as(), 0, tensor.bytes(), stream));
      onnx_[i]->infer(tensor.as<float>(), batch);
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
  }

  void allocate_slots(bool sync, int stream_count, int batch) {
    const ExecutorOptions& o = o_;
    const std::size_t pixels = max_pixels(o.layouts);
    const std::size_t net_pixels = static_cast<std::size_t>(o.gpu.preprocess.width) * o.gpu.preprocess.height;
    for (int i = 0; i < static_cast<int>(slots_.size()); ++i) {
      GpuSlot& s = slots_[i];
      s.yuv = cuda::DeviceBuffer(batch * max_frame_bytes(o.layouts));
      s.bgr = cuda::DeviceBuffer(batch * pixels * 3);
      s.boxed = cuda::DeviceBuffer(batch * net_pixels * 3);
      s.tensor = cuda::DeviceBuffer(batch * net_pixels * 3 * sizeof(float));
      s.detections = cuda::DeviceBuffer(batch * sizeof(DetectionList));
      if (!o.out_layouts.empty()) s.scaled = cuda::DeviceBuffer(batch * max_frame_bytes(o.out_layouts));
      if (!o.decoded_layouts.empty()) s.decoded = cuda::DeviceBuffer(batch * max_frame_bytes(o.decoded_layouts));
      if (const std::size_t bytes = narrowed_buffer_bytes(o, batch)) s.narrowed = cuda::DeviceBuffer(bytes);
      CUDA_CHECK(cudaMemset(s.detections.as(), 0, s.detections.bytes()));
      s.host_detections = HostBuffer(batch * sizeof(DetectionList), HostMemory::pinned);
      if (net_) s.net_scratch.emplace(net_->make_scratch(batch));
      s.stream_index = sync ? 0 : i % stream_count;
      s.stream = sync ? cudaStreamLegacy : streams_[s.stream_index].get();
      if (!sync && o.copy.chunk_bytes > 0)
        for (int k = 0; k < stream_count; ++k) s.chunk_done.emplace_back();
    }
  }

  int slots() const override { return static_cast<int>(slots_.size()); }
  std::string device_name() const override { return name_; }

  HostWaits wait_idle(int slot) override {
    HostWaits waits;
    GpuSlot& s = slots_[slot];
    if (!s.used) return waits;
    NvtxRange range("wait slot");
    {
      TimedWait wait(waits, WaitKind::compute, o_.clock_origin);
      s.compute_done.synchronize();
    }
    {
      TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
      s.d2h_done.synchronize();
    }
    return waits;
  }

  HostWaits submit(int slot, std::span<const DecodedFrame> frames, std::span<std::uint8_t* const> outputs,
                   const HudLines& hud) override {
    NvtxRange range("submit");
    HostWaits waits;
    sync_now_ = requested_mode_ == CopyMode::sync;
    GpuSlot& s = slots_[slot];
    s.used = true;
    s.sync_copies = sync_now_;
    s.frames = static_cast<int>(frames.size());
    s.h2d_bytes = s.d2h_bytes = 0;
    const BatchPacking pack = pack_batch(frames, o_);
    s.start.record(s.stream);
    const bool copies = !(o_.gpu_stage_only && s.primed);
    s.primed = true;
    if (copies)
      for (std::size_t i = 0; i < frames.size(); ++i) {
        const bool to_decoded = o_.uploaded_into(frames[i].source) == ExecutorOptions::FrameBuffer::decoded;
        upload(s, to_decoded ? s.decoded.as() + pack.decoded[i] : s.yuv.as() + pack.yuv[i], frames[i], waits);
      }
    release_nvdec_frames(frames, waits);
    join_chunks(s);
    s.h2d_done.record(s.stream);
    OnnxDetector* onnx = onnx_.empty() ? nullptr : onnx_[s.stream_index].get();
    GpuStageKernels kernels(o_, letterboxes_, net_, atlas_, s, frames, pack, onnx, [&](StagePoint point) {
      if (point == StagePoint::preprocessed) {
        s.preprocess_done.record(s.stream);
        inject_fault_if_due(s, frames);
      }
      if (point == StagePoint::inferred) s.infer_done.record(s.stream);
      if (point == StagePoint::overlaid) s.compute_done.record(s.stream);
    });
    run_gpu_stage(kernels, runs_of(frames), s.frames, {o_.detects(), o_.overlay.boxes, o_.overlay.hud}, hud);
    if (sync_now_) {
      TimedWait wait(waits, WaitKind::compute, o_.clock_origin);
      CUDA_CHECK(cudaStreamSynchronize(s.stream));
    }
    if (!o_.gpu_stage_only) download(s, frames, outputs, pack, waits);
    s.d2h_done.record(s.stream);
    return waits;
  }

  void download(GpuSlot& s, std::span<const DecodedFrame> frames, std::span<std::uint8_t* const> outputs,
                const BatchPacking& pack, HostWaits& waits) {
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const YuvLayout& in = o_.layouts[frames[i].source];
      const YuvLayout& out = output_layout(o_.layouts, o_.out_layouts, frames[i].source);
      const std::uint8_t* result = scales(in, out) ? s.scaled.as() + pack.out[i] : s.yuv.as() + pack.yuv[i];
      s.d2h_bytes += out.frame_bytes;
      TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
      if (sync_now_)
        CUDA_CHECK(cudaMemcpy(outputs[i], result, out.frame_bytes, cudaMemcpyDeviceToHost));
      else
        CUDA_CHECK(cudaMemcpyAsync(outputs[i], result, out.frame_bytes, cudaMemcpyDeviceToHost, s.stream));
    }
    if (!o_.detects()) return;
    TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
    CUDA_CHECK(cudaMemcpyAsync(s.host_detections.data(), s.detections.as(), s.frames * sizeof(DetectionList),
                               cudaMemcpyDeviceToHost, s.stream));
    if (sync_now_) CUDA_CHECK(cudaStreamSynchronize(s.stream));
  }

  void inject_fault_if_due(const GpuSlot& s, std::span<const DecodedFrame> frames) {
    if (o_.fault_trap_at_frame < 0 || fault_injected_) return;
    for (const DecodedFrame& f : frames)
      if (f.index >= o_.fault_trap_at_frame) {
        spdlog::warn("VIDPIPE_INJECT_FAULT: trapping the GPU in the batch of frame {}", f.index);
        launch_fault_trap(s.stream);
        fault_injected_ = true;
        return;
      }
  }

  void set_mode(CopyMode mode) override {
    if (o_.copy.mode == CopyMode::async) requested_mode_ = mode;
  }

  BatchTimings wait_done(int slot) override {
    GpuSlot& s = slots_[slot];
    s.d2h_done.synchronize();
    BatchTimings t;
    t.h2d_ms = s.h2d_done.ms_since(s.start);
    t.compute_ms = s.compute_done.ms_since(s.h2d_done);
    t.preprocess_ms = s.preprocess_done.ms_since(s.h2d_done);
    t.infer_ms = s.infer_done.ms_since(s.preprocess_done);
    t.d2h_ms = s.d2h_done.ms_since(s.compute_done);
    t.gpu_begin = origin_host_ + s.start.ms_since(origin_) / 1e3;
    t.gpu_end = origin_host_ + s.d2h_done.ms_since(origin_) / 1e3;
    t.h2d_bytes = s.h2d_bytes;
    t.d2h_bytes = s.d2h_bytes;
    t.stream = s.stream_index;
    t.copies = s.sync_copies ? CopyMode::sync : CopyMode::async;
    return t;
  }

  std::vector<float> read_tensor(int slot) override {
    GpuSlot& s = slots_[slot];
    s.d2h_done.synchronize();
    std::vector<float> out(static_cast<std::size_t>(o_.gpu.preprocess.width) * o_.gpu.preprocess.height * 3 * s.frames);
    CUDA_CHECK(cudaMemcpy(out.data(), s.tensor.as(), out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return out;
  }

  std::vector<DetectionList> detections(int slot) override {
    GpuSlot& s = slots_[slot];
    s.d2h_done.synchronize();
    const auto* lists = reinterpret_cast<const DetectionList*>(s.host_detections.data());
    if (!o_.detects()) return std::vector<DetectionList>(s.frames);
    return std::vector<DetectionList>(lists, lists + s.frames);
  }

 private:
  void upload(GpuSlot& s, std::uint8_t* dst, const DecodedFrame& frame, HostWaits& waits) {
    const YuvLayout& l = o_.decoded(frame.source);
    if (frame.on_device()) {
      copy_from_nvdec(s, dst, l, *frame.frame, waits);
      return;
    }
    const std::uint8_t* src = frame.data();
    const std::size_t bytes = l.frame_bytes;
    s.h2d_bytes += bytes;
    // Time inside the call is host time blocked on the copy: all of it for cudaMemcpy,
    // the staging for pageable cudaMemcpyAsync, next to nothing for pinned.
    TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
    if (sync_now_) {
      CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
      return;
    }
    if (chunk_bytes_ == 0 || chunk_bytes_ >= bytes) {
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s.stream));
      return;
    }
    // Pieces go round-robin over all streams; the slot's stream waits for all of
    // them before the kernels (join_chunks).
    std::size_t k = 0;
    for (std::size_t off = 0; off < bytes; off += chunk_bytes_, ++k) {
      const int stream_index = static_cast<int>((s.stream_index + k) % streams_.size());
      CUDA_CHECK(cudaMemcpyAsync(dst + off, src + off, std::min(chunk_bytes_, bytes - off),
                                 cudaMemcpyHostToDevice, streams_[stream_index].get()));
    }
  }

  // An NVDEC frame is already on the device, in NVDEC's pitch: a device-to-device copy
  // into the slot's layout (no bytes cross PCIe, so none count as H2D).
  void copy_from_nvdec(GpuSlot& s, std::uint8_t* dst, const YuvLayout& l, const AVFrame& f, HostWaits& waits) {
    if (!f.data[0] || !f.data[1] || f.linesize[0] < l.width * l.sample_bytes)
      throw CudaError(cudaErrorInvalidValue, "an NVDEC frame arrived without its device planes (the decoder's "
                                             "surfaces ran out?): lower copy.batch_size or copy.streams");
    if (splits_chroma(l, f)) {
      // A file split over CPU and NVDEC decoders: the input's layout is the CPU decoder's.
      if (!sync_now_) {
        launch_split_chroma(f.data[0], f.linesize[0], f.data[1], f.linesize[1], dst, l, nvdec_copies());
        return;
      }
      TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
      launch_split_chroma(f.data[0], f.linesize[0], f.data[1], f.linesize[1], dst, l, cudaStreamPerThread);
      CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
      return;
    }
    // NV12/P010/P016: two planes; 4:4:4 (YUV444P, YUV444P16): three.
    for (int p = 0; p < l.planes(); ++p) {
      const PlaneView plane = plane_of(l, p);
      const std::size_t row_bytes = static_cast<std::size_t>(plane.width) * plane.channels * l.sample_bytes;
      if (sync_now_) {
        TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
        CUDA_CHECK(cudaMemcpy2D(dst + plane.offset, plane.pitch, f.data[p], f.linesize[p], row_bytes, plane.height,
                                cudaMemcpyDeviceToDevice));
      } else {
        CUDA_CHECK(cudaMemcpy2DAsync(dst + plane.offset, plane.pitch, f.data[p], f.linesize[p], row_bytes,
                                     plane.height, cudaMemcpyDeviceToDevice, nvdec_copies()));
      }
    }
  }

  // An NV12 frame from NVDEC for an input laid out in three planes (a CPU decoder's).
  static bool splits_chroma(const YuvLayout& l, const AVFrame& f) {
    if (l.nv12 || !f.hw_frames_ctx) return false;
    return reinterpret_cast<const AVHWFramesContext*>(f.hw_frames_ctx->data)->sw_format == AV_PIX_FMT_NV12;
  }

  // NVDEC frames are copied on a stream of their own, which holds nothing but these
  // device-to-device copies (microseconds), and waited for here: the decoder's surfaces
  // then go back as soon as the batch is submitted, rather than when it completes, so
  // the pipeline never holds more of them than the decoder has (FFmpeg's pool is fixed).
  cudaStream_t nvdec_copies() {
    if (!nvdec_stream_) nvdec_stream_.emplace();
    return nvdec_stream_->get();
  }

  void release_nvdec_frames(std::span<const DecodedFrame> frames, HostWaits& waits) {
    if (sync_now_ || !nvdec_stream_ || std::none_of(frames.begin(), frames.end(), [](const DecodedFrame& f) {
          return f.on_device();
        }))
      return;
    TimedWait wait(waits, WaitKind::copy, o_.clock_origin);
    CUDA_CHECK(cudaStreamSynchronize(nvdec_stream_->get()));
  }

  void join_chunks(GpuSlot& s) {
    if (s.chunk_done.empty()) return;
    for (std::size_t k = 0; k < streams_.size(); ++k) {
      if (static_cast<int>(k) == s.stream_index) continue;
      s.chunk_done[k].record(streams_[k].get());
      CUDA_CHECK(cudaStreamWaitEvent(s.stream, s.chunk_done[k].get(), 0));
    }
  }

  ExecutorOptions o_;
  std::vector<Letterbox> letterboxes_;
  std::string name_;
  std::vector<cuda::Stream> streams_;
  std::vector<std::unique_ptr<OnnxDetector>> onnx_;  // per stream (after streams_: gone before them)
  std::optional<cuda::Stream> nvdec_stream_;  // device-to-device copies out of NVDEC frames
  std::vector<GpuSlot> slots_;
  std::optional<TinyFaceNetGpu> net_;
  cuda::DeviceBuffer atlas_pixels_;
  GlyphAtlasView atlas_;
  cuda::Event origin_;
  double origin_host_ = 0;
  std::atomic<CopyMode> requested_mode_{CopyMode::async};
  bool sync_now_ = false;  // requested_mode_ as of this submit
  bool fault_injected_ = false;
  std::size_t chunk_bytes_ = static_cast<std::size_t>(o_.copy.chunk_bytes);
};

}  // namespace

std::unique_ptr<Executor> make_gpu_executor(const ExecutorOptions& options) {
  return std::make_unique<GpuExecutor>(options);
}

}  // namespace vidpipe
