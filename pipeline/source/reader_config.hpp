// The reader.* keys: how frames are decoded. Declared in reader_config.cpp.
#pragma once
#include <vector>

#include "source/decoder_list.hpp"

namespace vidpipe {

template <class S>
class Keys;

enum class Deinterlace { automatic, on, off };

struct ReaderConfig {
  Decoder decoder = Decoder::cpu;
  int threads = 0;      // 0: FFmpeg's choice
  int pool_frames = 0;  // 0: enough for the decoder plus what the pipeline holds
  // A pool wait this long means the decoder itself holds every buffer: a deadlock.
  int pool_wait_ms = 30000;
  DecoderList decoders;  // one file split over several (segment_plan.hpp)
  Deinterlace deinterlace = Deinterlace::automatic;
  int nice = 0;  // runs of several inputs: how much nicer decoder threads run (base/thread_priority.hpp)
};

void declare_keys(Keys<ReaderConfig>& keys);

// reader.threads for each of `inputs` inputs: with 0 and several CPU-decoded inputs the cores
// are shared out among them (FFmpeg's own choice, cores + 1 each, would start inputs x cores
// threads); otherwise as configured.
int decoder_threads_each(const ReaderConfig& reader, int inputs);

}  // namespace vidpipe
