// Owning wrappers for CUDA objects, so nothing leaks when a stage throws.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "common/cuda_check.hpp"

namespace vidpipe::cuda {

class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { if (stream_) cudaStreamDestroy(stream_); }
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  Stream& operator=(Stream&&) = delete;
  Stream(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Timing is left on: the metrics read every event's timestamp.
class Event {
 public:
  Event() { CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventBlockingSync)); }
  ~Event() { if (event_) cudaEventDestroy(event_); }
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t s) { CUDA_CHECK(cudaEventRecord(event_, s)); }
  void synchronize() const { CUDA_CHECK(cudaEventSynchronize(event_)); }
  bool done() const {
    const cudaError_t status = cudaEventQuery(event_);
    if (status == cudaErrorNotReady) return false;
    CUDA_CHECK(status);
    return true;
  }
  // Milliseconds from `earlier` to this event; both must have completed.
  float ms_since(const Event& earlier) const {
    float ms = 0.f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, earlier.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes) CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceBuffer() { if (ptr_) cudaFree(ptr_); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  template <class T = std::uint8_t>
  T* as() const { return static_cast<T*>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A launch sequence captured from a stream and instantiated: replayed with one launch.
class GraphExec {
 public:
  GraphExec() = default;
  explicit GraphExec(cudaGraphExec_t exec) : exec_(exec) {}
  ~GraphExec() { if (exec_) cudaGraphExecDestroy(exec_); }
  GraphExec(GraphExec&& o) noexcept : exec_(std::exchange(o.exec_, nullptr)) {}
  GraphExec& operator=(GraphExec&& o) noexcept {
    std::swap(exec_, o.exec_);
    return *this;
  }
  GraphExec(const GraphExec&) = delete;
  void launch(cudaStream_t s) const { CUDA_CHECK(cudaGraphLaunch(exec_, s)); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// Captures what `enqueue` queues on `stream` (this thread's launches only) into a graph.
// A throw while capturing ends the capture, so the stream is usable again.
template <class Enqueue>
GraphExec capture_graph(cudaStream_t stream, Enqueue&& enqueue) {
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t graph = nullptr;
  try {
    enqueue();
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);
    if (graph) cudaGraphDestroy(graph);
    throw;
  }
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  CUDA_CHECK(instantiated);
  return GraphExec(exec);
}

// How many CUDA devices this process can use; 0 when there is no driver or GPU.
int device_count() noexcept;

// Makes `device` current with blocking waits (a waiting host thread yields its core to the
// decoder threads instead of spinning) and creates its primary context now, so that the
// context's cost is paid, and timed, here rather than inside the first allocation.
void start_device(int device);

}  // namespace vidpipe::cuda
