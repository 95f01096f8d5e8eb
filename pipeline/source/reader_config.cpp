#include "source/reader_config.hpp"

#include "config/keys.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace vidpipe {
namespace {

const EnumNames<Decoder> decoder_names = {{"cpu", Decoder::cpu}, {"nvdec", Decoder::nvdec}};

Decoder parse_kind(const YAML::Node& n) {
  const auto word = keys_detail::scalar_as<std::string>(n, "cpu or nvdec");
  for (const auto& [name, kind] : decoder_names)
    if (word == name) return kind;
  throw "every entry must be cpu or nvdec, got '" + word + "'";
}

DecoderList parse_decoder_list(const YAML::Node& n) {
  DecoderList list;
  if (n.IsSequence()) {
    if (n.size() == 0 || n.size() > DecoderList::most)
      throw "a list of 1 to " + std::to_string(DecoderList::most) + " decoders, got " + std::to_string(n.size());
    for (std::size_t i = 0; i < n.size(); ++i) list.kinds.push_back(parse_kind(n[i]));
    list.count = static_cast<int>(list.kinds.size());
    return list;
  }
  if (n.IsScalar() && n.Scalar() == "auto") {
    list.automatic = true;
    return list;
  }
  std::int64_t count = 0;
  try {
    count = keys_detail::scalar_as<std::int64_t>(n, "a number, a list or auto");
  } catch (const std::string&) {
    throw "expected 1.." + std::to_string(DecoderList::most) + ", a list such as [cpu, nvdec] or auto, got " +
        keys_detail::describe(n);
  }
  if (count < 1 || count > DecoderList::most)
    throw "must be between 1 and " + std::to_string(DecoderList::most) + ", got " + std::to_string(count);
  list.count = static_cast<int>(count);
  return list;
}

}  // namespace

void declare_keys(Keys<ReaderConfig>& k) {
  k.choice("decoder", &ReaderConfig::decoder, decoder_names,
           "decoder. `nvdec` decodes on the GPU's video engines through FFmpeg's CUDA hwaccel: frames stay "
           "in device memory and the upload becomes a device-to-device copy (no H2D bytes). Without a CUDA "
           "device, or for a codec NVDEC cannot do, the run says so and decodes on the CPU.");
  k.integer("threads", &ReaderConfig::threads, 0, 64,
            "FFmpeg decoder threads per CPU-decoded input; 0: with one input FFmpeg chooses (cores + 1, at "
            "most 16), with several the cores are shared out (cores / inputs, at least 1 each).");
  k.integer("nice", &ReaderConfig::nice, 0, 19,
            "runs of several inputs: the decoding threads (each input's reader and FFmpeg's frame threads) "
            "run this much nicer than the pipeline's own, so that the few threads every input's frames pass "
            "through (submit, completion, sink) are not queued behind dozens of decoders. 0: the same "
            "priority, the default: on the lent H100 with 32-40 CPU-decoded inputs, 10 did not help and "
            "dropped more (docs/BENCHMARKS.md). A run of one input keeps one priority.");
  k.parsed("decoders", &ReaderConfig::decoders, "1..8, a list of `cpu` | `nvdec`, or `auto`",
           "decoders one file is split over: the file is cut at its keyframes (at least a second apart), "
           "each decoder takes the next segment when it is done with one (a decoder clearly slower than the "
           "others takes one far enough ahead to be done when the reading gets there, so it never holds the "
           "others up), and the frames are put back in order; the report's `inputs[].split_decoders` says "
           "what each took, its rate and busy share. A number: that many of `reader.decoder`'s kind. A list "
           "mixes kinds, e.g. `[cpu, nvdec, nvdec]`: the CPU decoder and two NVDEC sessions at once, each "
           "leaving the other's hardware idle no longer (CPU frames go up from the pinned pool, NVDEC's are "
           "copied on the device into the CPU decoder's layout; 8-bit 4:2:0 only, other formats keep the "
           "decoders of the first kind, with a note). `auto`: every kind the machine has (the CPU decoder "
           "and " + std::to_string(DecoderList::auto_nvdec_sessions) +
               " NVDEC sessions with a CUDA device; one CPU decoder without). With `reader.threads: 0` the CPU "
           "decoders share the cores left after one for each NVDEC session (its demuxing and copy-out) and "
           "one for the rest of the pipeline. Each NVDEC session "
           "runs up to a whole segment ahead, in device memory of its own (a 3-s 4K segment: 1.1 GB a "
           "session, at most a quarter of the free device memory in all). MP4/MOV "
           "files only (their index lists the keyframes), not live inputs, pipes, `input.preload` or "
           "`input.realtime`; a looping input is split pass by pass too, so a file of one GOP is. Other "
           "inputs are decoded by one decoder, with a note. Needs closed GOPs "
           "(x264's default): frames that reference the previous segment cannot be decoded apart from it.",
           parse_decoder_list);
  k.integer("pool_frames", &ReaderConfig::pool_frames, 0, 1024,
            "frame buffers in the pinned pool; 0 sizes it for the decoder's reference frames plus what the "
            "pipeline holds in flight.");
  k.integer("pool_wait_ms", &ReaderConfig::pool_wait_ms, 100, 600000,
            "how long the decoder waits for a free pool buffer before the run ends with \"frame pool "
            "exhausted\": every buffer held this long means a pool too small for what holds them (the "
            "decoder's reference frames, the batches in flight). Raise it only for a GPU stage slower than "
            "this per batch.");
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
