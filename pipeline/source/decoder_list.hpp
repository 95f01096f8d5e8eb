// reader.decoders: the decoders one file is split over and their kinds (a count of one kind,
// a list mixing the CPU and NVDEC, or auto), apart from how the config reads them
// (reader_config.cpp) so that the reader needs no YAML.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace vidpipe {

struct ReaderConfig;

enum class Decoder { cpu, nvdec };

// reader.decoders: how many decoders one file is split over, and of which kinds.
struct DecoderList {
  int count = 1;               // `N`: N decoders of reader.decoder's kind
  std::vector<Decoder> kinds;  // `[cpu, nvdec, nvdec]`: one decoder per entry
  bool automatic = false;      // `auto`: every kind the machine has
  static constexpr int most = 8;
  // NVDEC sessions `auto` adds beside the CPU decoder: two, each holding a segment of device
  // memory and a core of its own for demuxing and copy-out (a list tries more).
  static constexpr int auto_nvdec_sessions = 2;

  // Whether it names more than one decoder (or may, for `auto`).
  bool splits() const { return automatic || kinds.size() > 1 || (kinds.empty() && count > 1); }
  bool mixed() const;
  // Each decoder's kind, the CPU decoders first: the first decoder's frames set the input's
  // layout, and an NVDEC frame goes into a CPU decoder's planes on the device, not the
  // other way round. `single`: reader.decoder; `gpu`: whether NVDEC is there to use.
  std::vector<Decoder> resolve(Decoder single, bool gpu) const;
  // The same list with NVDEC entries decoding on the CPU (no CUDA device): `auto` is one
  // CPU decoder (more would only share the same cores), a list keeps its CPU entries.
  DecoderList on_cpu_only() const;
};

void to_json(nlohmann::json& out, const DecoderList& list);
const char* to_string(Decoder decoder);

// reader.threads for each CPU decoder of a file split over `kinds` (reader.decoders): with 0
// and NVDEC sessions beside them, the cores less one for each session (its demuxing,
// parsing and copy-out) and one for the rest of the pipeline, shared among the CPU decoders;
// otherwise as configured.
int split_cpu_threads(const ReaderConfig& reader, const std::vector<Decoder>& kinds, int cores);

}  // namespace vidpipe
