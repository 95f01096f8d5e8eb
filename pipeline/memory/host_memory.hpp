// Host buffers for frames: page-locked (cudaHostAlloc) so DMA can read them
// directly, or ordinary pageable memory, which the driver must stage first.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace vidpipe {

enum class HostMemory { pinned, pageable };

std::string_view to_string(HostMemory m);

class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(std::size_t bytes, HostMemory kind);
  ~HostBuffer();
  HostBuffer(HostBuffer&& o) noexcept;
  HostBuffer& operator=(HostBuffer&& o) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  std::uint8_t* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  HostMemory kind() const { return kind_; }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t bytes_ = 0;
  HostMemory kind_ = HostMemory::pageable;
};

}  // namespace vidpipe
