#include <cuda_runtime_api.h>

#include <iostream>

#include "commands.hpp"
#include "config/config.hpp"
#include "memory/cuda_raii.hpp"
#include "memory/frame_layout.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

int probe_command(const ProbeArgs& args, const std::atomic<bool>* stop) {
  ReaderOptions ro;
  ro.uri = args.input;
  // A server that accepts and sends nothing must not hold probe: one attempt, within
  // input.timeout_ms, and Ctrl-C heard while it opens.
  ro.live = is_live_uri(args.input);
  ro.input.reconnect.attempts = 0;
  ro.cancel = stop;
  ro.memory = HostMemory::pageable;
  ro.reader.pool_frames = 1;
  ro.reader.threads = 1;
  VideoReader reader(ro);
  const VideoInfo& v = reader.info();
  std::cout << "input: " << v.uri << "\n  " << v.codec << " " << v.width << "x" << v.height << " "
            << v.pixel_format << " " << v.fps << " fps, " << v.frame_count << " frames (container), colour "
            << to_string(v.colour.standard) << " " << to_string(v.colour.range) << "\n  frame buffer "
            << reader.layout().frame_bytes << " bytes (" << visible_bytes(reader.layout()) << " visible)\n";
  const int n = cuda::device_count();
  std::cout << "CUDA devices: " << n << "\n";
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    std::cout << "  " << i << ": " << p.name << ", sm_" << p.major << p.minor << ", "
              << p.totalGlobalMem / (1 << 20) << " MiB, copy engines " << p.asyncEngineCount << "\n";
  }
  return 0;
}

}  // namespace vidpipe
