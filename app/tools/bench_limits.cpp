#include "tools/bench_limits.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "base/clock.hpp"
#include "device/executor.hpp"
#include "device/detector_setup.hpp"
#include "memory/cuda_raii.hpp"
#include "memory/host_memory.hpp"
#include "metrics/stage_account.hpp"
#include "run/executor_inputs.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {
namespace {

ReaderOptions reader_options(const Config& c, HostMemory memory, int preload) {
  ReaderOptions ro{input_uris(c).front(), c.input, c.reader, memory};
  ro.input.preload = preload;
  // The decoder loops as the rungs do; preloaded frames are replayed, so a clip shorter than
  // a batch still fills one.
  ro.input.loop = preload > 0 || c.input.loop;
  ro.input.realtime = false;
  ro.in_flight = 8;
  ro.cuda_device = c.gpu.device;
  return ro;
}

struct DecoderAlone {
  double fps = 0;
  int threads = 0;
  std::string name;
};

// Frames a second the reader delivers with nothing behind it: what a decode-bound rung
// can reach at best (ffmpeg -f null would measure the same decoder, minus our pool).
DecoderAlone measure_decoder(const Config& c, HostMemory memory, const std::atomic<bool>* stop) {
  ReaderOptions ro = reader_options(c, memory, 0);
  ro.cancel = stop;
  VideoReader reader(ro);
  DecoderAlone alone{0, reader.info().decoder_threads, fmt::format("{} ({})", reader.info().codec, reader.info().decoder)};
  if (reader.info().decoders > 1) alone.name.insert(alone.name.size() - 1, fmt::format(", {} decoders", reader.info().decoders));
  // As many frames as a rung decodes (a short clip looped as the rungs loop it), so start-up
  // and one scheduling hiccup weigh as little here as there.
  const std::int64_t limit = c.input.max_frames > 0 ? c.input.max_frames : 600;
  std::int64_t frames = 0;
  double first = 0;
  while (frames < limit && !(stop && stop->load())) {
    std::optional<DecodedFrame> f = reader.next();
    if (!f) break;
    if (frames++ == 0) first = steady_seconds();  // from the first frame: no open, no probe
  }
  const double elapsed = steady_seconds() - first;
  if (frames > 1 && elapsed > 0) alone.fps = (frames - 1) / elapsed;
  return alone;
}

// Pinned async copies of whole frames round-robin over four streams a direction, as the
// pipeline's slots issue them; both directions at once on eight.
void measure_link(BenchLimits& l) {
  constexpr int frames = 64, buffers = 4, streams_per_direction = 4;
  const std::size_t up = l.h2d_frame_bytes, down = l.d2h_frame_bytes;
  HostBuffer host_up(up * buffers, HostMemory::pinned), host_down(down * buffers, HostMemory::pinned);
  cuda::DeviceBuffer dev_up(up * buffers), dev_down(down * buffers);
  std::vector<cuda::Stream> streams(2 * streams_per_direction);
  auto run = [&](bool h2d, bool d2h) {
    for (int i = 0; i < frames; ++i) {
      const int b = i % buffers, s = i % streams_per_direction;
      if (h2d)
        CUDA_CHECK(cudaMemcpyAsync(dev_up.as() + b * up, host_up.data() + b * up, up, cudaMemcpyHostToDevice,
                                   streams[s].get()));
      if (d2h)
        CUDA_CHECK(cudaMemcpyAsync(host_down.data() + b * down, dev_down.as() + b * down, down,
                                   cudaMemcpyDeviceToHost, streams[streams_per_direction + s].get()));
    }
    for (cuda::Stream& st : streams) CUDA_CHECK(cudaStreamSynchronize(st.get()));
  };
  auto rate = [&](bool h2d, bool d2h) {
    run(h2d, d2h);  // warm-up
    const double start = steady_seconds();
    run(h2d, d2h);
    return frames / (steady_seconds() - start);
  };
  l.link_h2d_fps = rate(true, false);
  l.link_d2h_fps = rate(false, true);
  l.link_both_fps = rate(true, true);
  l.link_both_gbps = l.link_both_fps * double(up + down) / 1e9;
}

// The run's GPU stage on frames already in the slots (ExecutorOptions::gpu_stage_only).
// `with_detector`: the run's options with its detector attached (once for every rung).
double stage_alone_fps(const Config& c, bool on_gpu, const VideoReader& reader, const ExecutorOptions& with_detector,
                       std::span<const DecodedFrame> frames, int streams, int batch) {
  ExecutorOptions eo = with_detector;
  set_input_layouts(eo, {reader.layout()}, {reader.info()}, c);
  eo.copy.mode = CopyMode::async;
  eo.copy.streams = streams;
  eo.copy.batch_size = batch;
  eo.copy.chunk_bytes = 0;
  eo.gpu_stage_only = true;
  eo.clock_origin = steady_seconds();
  const std::unique_ptr<Executor> ex = on_gpu ? make_gpu_executor(eo) : make_cpu_executor(eo);
  std::vector<std::uint8_t*> outputs(batch, nullptr);  // nothing is downloaded
  const HudLines hud{};
  const int slots = ex->slots();
  auto submit = [&](int k) {
    ex->wait_idle(k % slots);
    ex->submit(k % slots, frames.first(batch), outputs, hud);
  };
  int k = 0;
  for (; k < 2 * slots; ++k) submit(k);  // primes every slot, warms the kernels
  for (int s = 0; s < slots; ++s) ex->wait_done(s);
  const double start = steady_seconds();
  int timed = 0;
  for (; timed < 2 * slots || (timed < 64 && steady_seconds() - start < 0.5); ++timed) submit(k++);
  for (int s = 0; s < slots; ++s) ex->wait_done(s);
  return timed * batch / (steady_seconds() - start);
}

}  // namespace

BenchLimits measure_limits(const Config& c, bool decoded, const std::vector<std::pair<int, int>>& rungs,
                           const std::atomic<bool>* stop) {
  BenchLimits l;
  l.on_gpu = c.device != DeviceChoice::cpu && cuda::device_count() > c.gpu.device;
  const HostMemory memory = l.on_gpu ? HostMemory::pinned : HostMemory::pageable;
  if (decoded) {
    const DecoderAlone alone = measure_decoder(c, memory, stop);
    l.decoder_fps = alone.fps;
    l.decoder_threads = alone.threads;
    l.decoder = alone.name;
  }
  int max_batch = 1;
  for (const auto& [streams, batch] : rungs) max_batch = std::max(max_batch, batch);
  VideoReader reader(reader_options(c, memory, max_batch));
  std::vector<DecodedFrame> frames;
  while (static_cast<int>(frames.size()) < max_batch)
    if (std::optional<DecodedFrame> f = reader.next()) frames.push_back(std::move(*f));
  const YuvLayout& layout = reader.layout();
  l.h2d_frame_bytes = layout.frame_bytes;
  l.d2h_frame_bytes = written_layout(layout, reader.info(), c.sink).frame_bytes;
  if (l.on_gpu) {
    CUDA_CHECK(cudaSetDevice(c.gpu.device));
    measure_link(l);
  }
  ExecutorOptions with_detector{c.copy, c.gpu, c.overlay};
  attach_detector(with_detector, c.gpu);
  for (const auto& [streams, batch] : rungs)
    if (!l.stage_fps.count({streams, batch}))
      l.stage_fps[{streams, batch}] = stage_alone_fps(c, l.on_gpu, reader, with_detector, frames, streams, batch);
  return l;
}

void measure_mixed_decoders(const Config& mixed, BenchLimits& l, const std::atomic<bool>* stop) {
  const DecoderAlone alone = measure_decoder(mixed, HostMemory::pinned, stop);
  l.mixed_decoder_fps = alone.fps;
  l.mixed_decoder_threads = alone.threads;
  l.mixed_decoder = alone.name;
}

BenchLimits BenchLimits::with_mixed_decoders() const {
  BenchLimits mixed = *this;
  mixed.decoder_fps = mixed_decoder_fps;
  mixed.decoder_threads = mixed_decoder_threads;
  mixed.decoder = mixed_decoder;
  return mixed;
}

namespace {

// Frames a second of `streams` streams, each carrying one batch at a time through three
// stations in turn (H2D engine, SMs, D2H engine), by exact mean-value analysis of that
// closed queueing network: a batch's wait at a station grows with the batches queued there
// when one fewer stream was running. One stream is the three times added up; many streams
// approach the slowest station's rate. `demand_s`: seconds a batch needs at each station.
struct StationLoad {
  double fps = 0;
  int busiest = 0;            // index into demand_s
  double busiest_share = 0;  // of its time the busiest station works at that rate
};
StationLoad closed_network_rate(const std::vector<double>& demand_s, int streams, int batch) {
  std::vector<double> queue(demand_s.size(), 0.0);
  double batches_per_s = 0;
  for (int n = 1; n <= streams; ++n) {
    std::vector<double> residence(demand_s.size());
    double cycle = 0;
    for (std::size_t k = 0; k < demand_s.size(); ++k) cycle += residence[k] = demand_s[k] * (1 + queue[k]);
    batches_per_s = n / cycle;
    for (std::size_t k = 0; k < demand_s.size(); ++k) queue[k] = batches_per_s * residence[k];
  }
  const auto busiest = std::max_element(demand_s.begin(), demand_s.end()) - demand_s.begin();
  return {batches_per_s * batch, static_cast<int>(busiest), batches_per_s * demand_s[busiest]};
}

}  // namespace

BenchLimits::Forecast BenchLimits::forecast(int streams, int batch, double sink_ms) const {
  std::vector<Forecast> limits;
  if (decoder_fps > 0) limits.push_back({decoder_fps, "decode"});
  const auto stage = stage_fps.find({streams, batch});
  std::vector<double> demand_s;
  std::vector<const char*> names;
  if (link_h2d_fps > 0 && link_d2h_fps > 0) {
    demand_s = {batch / link_h2d_fps, batch / link_d2h_fps};
    names = {"copy", "copy"};
    limits.push_back({link_both_fps, "copy"});  // both directions share the link
  }
  if (stage != stage_fps.end() && stage->second > 0) {
    demand_s.push_back(batch / stage->second);
    names.push_back("compute");
  }
  if (!demand_s.empty()) {
    const StationLoad load = closed_network_rate(demand_s, std::max(1, streams), batch);
    limits.push_back({load.fps, load.busiest_share < engine_near_full ? "streams" : names[load.busiest]});
  }
  if (sink_ms > 0) limits.push_back({1e3 / sink_ms, "sink"});
  if (limits.empty()) return {};
  return *std::min_element(limits.begin(), limits.end(), [](const auto& a, const auto& b) { return a.fps < b.fps; });
}

double BenchLimits::lowest(int streams, int batch) const {
  double low = 0;
  auto take = [&](double v) {
    if (v > 0) low = low > 0 ? std::min(low, v) : v;
  };
  take(decoder_fps);
  take(link_both_fps);
  const auto stage = stage_fps.find({streams, batch});
  if (stage != stage_fps.end()) take(stage->second);
  return low;
}

nlohmann::json BenchLimits::json() const {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& [key, fps] : stage_fps) stages.push_back({{"streams", key.first}, {"batch", key.second}, {"fps", fps}});
  return {{"decoder_fps", decoder_fps},         {"decoder_threads", decoder_threads},
          {"decoder", decoder},                 {"mixed_decoder_fps", mixed_decoder_fps},
          {"mixed_decoder_threads", mixed_decoder_threads}, {"mixed_decoder", mixed_decoder},
          {"link_h2d_fps", link_h2d_fps},
          {"link_d2h_fps", link_d2h_fps},       {"link_both_fps", link_both_fps},
          {"link_both_GB_per_s", link_both_gbps},   {"h2d_frame_bytes", h2d_frame_bytes},
          {"d2h_frame_bytes", d2h_frame_bytes}, {"gpu_stage_fps", stages}};
}

std::string BenchLimits::table() const {
  std::string t;
  if (decoder_fps > 0)
    t += fmt::format("  decoder alone      {:>8.1f} fps  {} on {} thread{}, into the same pool\n", decoder_fps, decoder,
                     decoder_threads, decoder_threads == 1 ? "" : "s");
  if (mixed_decoder_fps > 0)
    t += fmt::format("  cpu+nvdec alone    {:>8.1f} fps  {} on {} host thread{}\n", mixed_decoder_fps, mixed_decoder,
                     mixed_decoder_threads, mixed_decoder_threads == 1 ? "" : "s");
  if (link_both_fps > 0)
    t += fmt::format("  link               {:>8.1f} fps  each way with both busy ({:.1f} GB/s together); H2D alone {:.1f}, "
                     "D2H alone {:.1f} (frames of {:.1f} MB up, {:.1f} MB down)\n",
                     link_both_fps, link_both_gbps, link_h2d_fps, link_d2h_fps, h2d_frame_bytes / 1e6,
                     d2h_frame_bytes / 1e6);
  else
    t += "  link               not measured: no CUDA device\n";
  for (const auto& [key, fps] : stage_fps)
    t += fmt::format("  {} stage alone  {:>8.1f} fps  {} stream{}, batch {}\n", on_gpu ? "GPU" : "CPU", fps, key.first,
                     key.first == 1 ? "" : "s", key.second);
  return t;
}

}  // namespace vidpipe
