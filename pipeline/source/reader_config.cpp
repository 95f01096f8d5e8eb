#include "source/reader_config.hpp"

#include "config/keys.hpp"

#include <algorithm>
#include <thread>

namespace vidpipe {

void declare_keys(Keys<ReaderConfig>& k) {
  k.choice("decoder", &ReaderConfig::decoder, {{"cpu", Decoder::cpu}, {"nvdec", Decoder::nvdec}},
           "decoder. `nvdec` decodes on the GPU's video engines through FFmpeg's CUDA hwaccel: frames stay "
           "in device memory and the upload becomes a device-to-device copy (no H2D bytes). Without a CUDA "
           "device, or for a codec NVDEC cannot do, the run says so and decodes on the CPU.");
  k.integer("threads", &ReaderConfig::threads, 0, 64,
            "FFmpeg decoder threads per CPU-decoded input; 0: with one input FFmpeg chooses (cores + 1, at "
            "most 16), with several the cores are shared out (cores / inputs, at least 1 each).");
  k.integer("decoders", &ReaderConfig::decoders, 1, 8,
            "decoders one file is split over: the file is cut at its keyframes (at least a second apart), "
            "each decoder takes the next segment when it is done with one (a decoder clearly slower than the "
            "others takes one far enough ahead to be done when the reading gets there, so it never holds the "
            "others up), and the frames are put back in order; the report's `inputs[].split_decoders` says "
            "what each took and its rate. With `nvdec` each "
            "is a session of its own, and sessions add up where one alone bounds the run: each runs up to a "
            "whole segment ahead, in device memory of its own (a 3-s 4K segment: 1.1 GB a session, at most "
            "a quarter of the free device memory in all). CPU decoders each get `reader.threads`. MP4/MOV "
            "files only (their index lists the keyframes), not live inputs, pipes, `input.preload` or "
            "`input.realtime`; a looping input is split pass by pass too, so a file of one GOP is. Other inputs are decoded by one decoder, with a note. Needs closed GOPs "
            "(x264's default): frames that reference the previous segment cannot be decoded apart from it.");
  k.integer("pool_frames", &ReaderConfig::pool_frames, 0, 1024,
            "frame buffers in the pinned pool; 0 sizes it for the decoder's reference frames plus what the "
            "pipeline holds in flight.");
  k.choice("deinterlace", &ReaderConfig::deinterlace,
           {{"auto", Deinterlace::automatic}, {"on", Deinterlace::on}, {"off", Deinterlace::off}},
           "interlaced input (broadcast TS, camcorders) is deinterlaced on the GPU before anything looks at it: "
           "single-rate bob, the first field kept and the other rebuilt from it, so the detector and the output "
           "see no combing. `auto`: when the stream says it is interlaced (its field order); `on`: always "
           "(the top field first where the stream does not say); `off`: never.");
}

int decoder_threads_each(const ReaderConfig& reader, int inputs) {
  if (reader.threads > 0 || inputs <= 1 || reader.decoder != Decoder::cpu) return reader.threads;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / inputs);
}

}  // namespace vidpipe
