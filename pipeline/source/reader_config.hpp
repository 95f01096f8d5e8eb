// The reader.* keys: how frames are decoded. Declared in reader_config.cpp.
#pragma once

namespace vidpipe {

template <class S>
class Keys;

enum class Decoder { cpu, nvdec };
enum class Deinterlace { automatic, on, off };

struct ReaderConfig {
  Decoder decoder = Decoder::cpu;
  int threads = 0;      // 0: FFmpeg's choice
  int pool_frames = 0;  // 0: enough for the decoder plus what the pipeline holds
  int decoders = 1;     // decoders one file is split over (segment_plan.hpp)
  Deinterlace deinterlace = Deinterlace::automatic;
};

void declare_keys(Keys<ReaderConfig>& keys);

}  // namespace vidpipe
