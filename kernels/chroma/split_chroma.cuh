// An NVDEC frame (NV12: luma, then one plane of interleaved U/V) into a CPU decoder's
// three 8-bit 4:2:0 planes, on the device, as it is copied out of the decoder: a file split
// over CPU and NVDEC decoders (reader.decoders: [cpu, nvdec]) then gives the GPU stage one
// layout, and the host never touches NVDEC's pixels.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/image_types.hpp"

namespace vidpipe {

// The NV12 picture at `luma` / `chroma` (pitches in bytes) into `frame`, laid out as `to`
// (three planes, 8-bit 4:2:0, of the same size).
void launch_split_chroma(const std::uint8_t* luma, int luma_pitch, const std::uint8_t* chroma, int chroma_pitch,
                         std::uint8_t* frame, const YuvLayout& to, cudaStream_t stream);

}  // namespace vidpipe
