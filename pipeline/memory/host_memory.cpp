#include "memory/host_memory.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <new>
#include <utility>

#include "common/cuda_check.hpp"

namespace vidpipe {

std::string_view to_string(HostMemory m) { return m == HostMemory::pinned ? "pinned" : "pageable"; }

HostBuffer::HostBuffer(std::size_t bytes, HostMemory kind) : bytes_(bytes), kind_(kind) {
  if (kind == HostMemory::pinned) {
    void* p = nullptr;
    CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
    data_ = static_cast<std::uint8_t*>(p);
  } else {
    // 64-byte alignment: FFmpeg's SIMD writers expect it of every plane.
    const std::size_t rounded = (bytes + 63) / 64 * 64;
    data_ = static_cast<std::uint8_t*>(std::aligned_alloc(64, rounded));
    if (!data_) throw std::bad_alloc();
  }
}

HostBuffer::~HostBuffer() {
  if (!data_) return;
  if (kind_ == HostMemory::pinned)
    cudaFreeHost(data_);
  else
    std::free(data_);
}

HostBuffer::HostBuffer(HostBuffer&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), kind_(o.kind_) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& o) noexcept {
  std::swap(data_, o.data_);
  std::swap(bytes_, o.bytes_);
  std::swap(kind_, o.kind_);
  return *this;
}

}  // namespace vidpipe
