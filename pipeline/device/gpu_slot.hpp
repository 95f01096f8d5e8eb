// One slot of the GPU executor: the device buffers of a batch in flight, the stream it
// runs on and the events that time and fence it.
#pragma once
#include <optional>
#include <vector>

#include "device/face_net_gpu.hpp"
#include "memory/cuda_raii.hpp"
#include "memory/host_memory.hpp"

namespace vidpipe {

struct GpuSlot {
  cuda::DeviceBuffer yuv, bgr, boxed, tensor, detections;
  cuda::DeviceBuffer scaled;    // the outputs at sink.width/height, where an input has them
  cuda::DeviceBuffer decoded;   // frames as uploaded, where an input is turned or wide
  cuda::DeviceBuffer narrowed;  // 8-bit 4:2:0 before the turn, where an input is both
  HostBuffer host_detections;  // pinned: the small download joins the frame's stream
  std::optional<TinyFaceNetGpu::Scratch> net_scratch;
  cuda::Event start, h2d_done, preprocess_done, infer_done, compute_done, d2h_done;
  std::vector<cuda::Event> chunk_done;  // one per stream, for split uploads
  cudaStream_t stream = nullptr;
  int stream_index = 0;
  int frames = 0;
  std::size_t h2d_bytes = 0, d2h_bytes = 0;
  bool used = false;
  bool primed = false;  // gpu_stage_only: the slot holds its frames already
  bool sync_copies = false;  // the batch's copies were blocking
};

}  // namespace vidpipe
