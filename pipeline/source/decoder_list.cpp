#include "source/decoder_list.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "source/reader_config.hpp"

namespace vidpipe {

const char* to_string(Decoder decoder) { return decoder == Decoder::nvdec ? "nvdec" : "cpu"; }

bool DecoderList::mixed() const {
  return automatic || (std::count(kinds.begin(), kinds.end(), Decoder::cpu) > 0 &&
                       std::count(kinds.begin(), kinds.end(), Decoder::nvdec) > 0);
}

std::vector<Decoder> DecoderList::resolve(Decoder single, bool gpu) const {
  std::vector<Decoder> out = kinds;
  if (automatic) {
    out = {Decoder::cpu};
    if (gpu) out.insert(out.end(), auto_nvdec_sessions, Decoder::nvdec);
  } else if (out.empty()) {
    out.assign(static_cast<std::size_t>(count), single);
  }
  std::stable_partition(out.begin(), out.end(), [](Decoder d) { return d == Decoder::cpu; });
  return out;
}

DecoderList DecoderList::on_cpu_only() const {
  if (!automatic && kinds.empty()) return *this;
  DecoderList cpu;
  cpu.count = std::max<int>(1, static_cast<int>(std::count(kinds.begin(), kinds.end(), Decoder::cpu)));
  return cpu;
}

void to_json(nlohmann::json& out, const DecoderList& list) {
  if (list.automatic) {
    out = "auto";
  } else if (list.kinds.empty()) {
    out = list.count;
  } else {
    out = nlohmann::json::array();
    for (Decoder d : list.kinds) out.push_back(to_string(d));
  }
}

int split_cpu_threads(const ReaderConfig& reader, const std::vector<Decoder>& kinds, int cores) {
  const auto nvdec = std::count(kinds.begin(), kinds.end(), Decoder::nvdec);
  const auto cpu = static_cast<long>(kinds.size()) - nvdec;
  if (reader.threads > 0 || nvdec == 0 || cpu == 0) return reader.threads;
  return static_cast<int>(std::max<long>(1, (cores - nvdec - 1) / cpu));
}

}  // namespace vidpipe
