// `vidpipe probe`: the ffprobe of this tool. Every stream of the input, then what vidpipe
// reads of it (decoder, frame buffer, colour, turn) and this machine's CUDA devices.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <algorithm>

#include "base/redact.hpp"
#include "commands.hpp"
#include "config/config.hpp"
#include "memory/frame_layout.hpp"
#include "probe_streams.hpp"
#include "version.hpp"
#include "source/input_open.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {
namespace {

// A pipe is read once: the streams listing has had its bytes.
bool read_once(const std::string& uri) {
  return is_named_pipe(uri) || uri == "-" || uri.rfind("pipe:", 0) == 0 || uri.rfind("/dev/stdin", 0) == 0 ||
         uri.rfind("/dev/fd/", 0) == 0;
}

// Log warnings and errors only, for as long as it lives.
class WarningsOnly {
 public:
  WarningsOnly() : was_(spdlog::get_level()) { spdlog::set_level(std::max(was_, spdlog::level::warn)); }
  ~WarningsOnly() { spdlog::set_level(was_); }
  WarningsOnly(const WarningsOnly&) = delete;
  WarningsOnly& operator=(const WarningsOnly&) = delete;

 private:
  spdlog::level::level_enum was_;
};

nlohmann::json reader_json(const std::string& uri, const std::atomic<bool>* stop) {
  ReaderOptions ro;
  ro.uri = uri;
  // A server that accepts and sends nothing must not hold probe: one attempt, within
  // input.timeout_ms, and Ctrl-C heard while it opens.
  ro.live = is_live_uri(uri);
  ro.input.reconnect.attempts = 0;
  ro.cancel = stop;
  ro.memory = HostMemory::pageable;
  ro.reader.pool_frames = 1;
  ro.reader.threads = 1;
  // The reader's own "input ..." line would repeat what probe prints: warnings only.
  const WarningsOnly quiet;
  const VideoReader reader(ro);
  const VideoInfo& v = reader.info();
  return {{"decoder", v.decoder},
          {"colour", fmt::format("{} {}", to_string(v.colour.standard), to_string(v.colour.range))},
          {"quarter_turns", v.quarter_turns},
          {"frame_bytes", reader.layout().frame_bytes},
          {"visible_bytes", visible_bytes(reader.layout())}};
}

void print_text(const nlohmann::json& probed) {
  std::cout << "input: " << probed["input"].get<std::string>() << "\n" << streams_text(probed);
  if (probed["video_stream"].is_null())
    std::cout << "  no video stream: nothing for vidpipe to run\n";
  else if (!probed.contains("reader"))
    std::cout << "  vidpipe reads: not opened again (a pipe is read once)\n";
  else {
    const nlohmann::json& r = probed["reader"];
    std::cout << fmt::format("  vidpipe reads: decoder {}, colour {}, frame buffer {} bytes ({} visible){}\n",
                             r["decoder"].get<std::string>(), r["colour"].get<std::string>(),
                             r["frame_bytes"].get<std::size_t>(), r["visible_bytes"].get<std::size_t>(),
                             r["quarter_turns"] != 0 ? fmt::format(", turned upright ({} degrees clockwise)", 90 * r["quarter_turns"].get<int>()) : "");
  }
  std::cout << "CUDA devices: " << probed["cuda_devices"].size() << "\n";
  for (const nlohmann::json& d : probed["cuda_devices"])
    std::cout << fmt::format("  {}: {}, {}, {} MiB, copy engines {}\n", d["index"].get<int>(), d["name"].get<std::string>(),
                             d["sm"].get<std::string>(), d["memory_MiB"].get<std::size_t>(), d["copy_engines"].get<int>());
}

}  // namespace

int probe_command(const ProbeArgs& args, const std::atomic<bool>* stop) {
  nlohmann::json probed = probe_streams(args.input, stop);
  probed["input"] = redacted_uri(args.input);
  if (!probed["video_stream"].is_null() && !read_once(args.input)) probed["reader"] = reader_json(args.input, stop);
  probed["cuda_devices"] = gpus_json();
  if (args.json)
    std::cout << probed.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else
    print_text(probed);
  return 0;
}

}  // namespace vidpipe
