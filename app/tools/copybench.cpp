#include "tools/copybench.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstring>
#include <map>

#include "memory/cuda_raii.hpp"
#include "memory/host_memory.hpp"
#include "base/clock.hpp"

namespace vidpipe {
namespace {

// Page-locks an ordinary allocation in place (cudaHostRegister), for the
// "registered" rows: what a program does with buffers it did not allocate.
class RegisteredBuffer {
 public:
  explicit RegisteredBuffer(std::size_t bytes) : buffer_(bytes, HostMemory::pageable) {
    CUDA_CHECK(cudaHostRegister(buffer_.data(), bytes, cudaHostRegisterDefault));
  }
  ~RegisteredBuffer() { cudaHostUnregister(buffer_.data()); }
  std::uint8_t* data() const { return buffer_.data(); }

 private:
  HostBuffer buffer_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Runner {
  const CopyBenchOptions& o;
  std::vector<cuda::Stream> streams;
  std::uint8_t* device = nullptr;
  std::vector<std::uint8_t> fake_device;  // the CPU path's "device"

  // Copies `bytes` split over `n` streams in pieces of `piece` (0: one piece per stream).
  void copy(std::uint8_t* host, std::size_t bytes, bool h2d, const std::string& method, int n, std::size_t piece) {
    std::uint8_t* dev = o.cpu ? fake_device.data() : device;
    auto one = [&](std::size_t off, std::size_t len, int s) {
      std::uint8_t* dst = h2d ? dev + off : host + off;
      const std::uint8_t* src = h2d ? host + off : dev + off;
      if (o.cpu)
        std::memcpy(dst, src, len);
      else if (method == "sync")
        CUDA_CHECK(cudaMemcpy(dst, src, len, h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
      else
        CUDA_CHECK(cudaMemcpyAsync(dst, src, len, h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost,
                                   streams[s].get()));
    };
    if (method == "sync") {
      one(0, bytes, 0);
      return;
    }
    const std::size_t step = piece ? piece : (bytes + n - 1) / n;
    int k = 0;
    for (std::size_t off = 0; off < bytes; off += step, ++k) one(off, std::min(step, bytes - off), k % n);
    if (!o.cpu)
      for (int s = 0; s < n; ++s) CUDA_CHECK(cudaStreamSynchronize(streams[s].get()));
  }

  double time_ms(std::uint8_t* host, std::size_t bytes, bool h2d, const std::string& method, int n, std::size_t piece) {
    copy(host, bytes, h2d, method, n, piece);  // warm-up
    std::vector<double> t;
    for (int r = 0; r < o.repeats; ++r) {
      const double a = steady_seconds();
      copy(host, bytes, h2d, method, n, piece);
      t.push_back((steady_seconds() - a) * 1e3);
    }
    return median(t);
  }
};

const CopyMeasurement* find(const std::vector<CopyMeasurement>& rows, const std::string& memory,
                            const std::string& dir, const std::string& method, std::size_t bytes, int streams) {
  for (const auto& r : rows)
    if (r.memory == memory && r.direction == dir && r.method == method && r.bytes == bytes && r.streams == streams)
      return &r;
  return nullptr;
}

std::string size_text(std::size_t b) {
  // Binary units, as the sizes are (64K is 65,536 bytes) and as the chart's axis says.
  return b >= (1u << 20) ? fmt::format("{} MiB", b >> 20) : fmt::format("{} KiB", b >> 10);
}

// What the rules are judged on: one memory kind's rows.
struct RuleInputs {
  const std::vector<CopyMeasurement>& rows;
  const std::vector<std::size_t>& sizes;
  std::string memory;  // the rules are about pinned memory; the CPU path only has pageable
  int copy_engines = 0;

  const CopyMeasurement* one_stream(const std::string& dir, std::size_t b, const std::string& method = "async") const {
    return find(rows, memory, dir, method, b, 1);
  }
  // The best GB/s of `method` (any but sync when empty) with at most `max_streams` streams.
  double best(const std::string& dir, std::size_t b, int max_streams, const std::string& method = "") const {
    double best = 0;
    for (const auto& m : rows)
      if (m.memory == memory && m.direction == dir && m.bytes == b && m.streams <= max_streams &&
          (method.empty() ? m.method != "sync" : m.method == method))
        best = std::max(best, m.gbps);
    return best;
  }
};

// 1. Small copies: a plain cudaMemcpy is no slower than async + synchronise.
RuleVerdict small_copies_rule(const RuleInputs& in) {
  RuleVerdict rule{"below 1 MB a synchronous cudaMemcpy is as fast as an async copy (within 10%)", true, true, ""};
  for (std::size_t b : in.sizes) {
    if (b >= (1u << 20)) continue;
    for (const char* dir : {"h2d", "d2h"}) {
      const auto* s = in.one_stream(dir, b, "sync");
      const auto* a = in.one_stream(dir, b);
      if (!s || !a) continue;
      rule.held = rule.held && s->ms <= 1.1 * a->ms;
      rule.evidence += fmt::format("{} {}: sync {:.3f} ms, async {:.3f} ms; ", size_text(b), dir, s->ms, a->ms);
    }
  }
  return rule;
}

// 2. Mid sizes: one stream is enough.
RuleVerdict mid_copies_rule(const RuleInputs& in) {
  RuleVerdict rule{"1-100 MB: one async stream reaches 90% of the best multi-stream bandwidth", true, true, ""};
  for (std::size_t b : in.sizes) {
    if (b < (1u << 20) || b > (100u << 20)) continue;
    const auto* one = in.one_stream("h2d", b);
    const double best = in.best("h2d", b, 64);
    if (!one || best <= 0) continue;
    rule.held = rule.held && one->gbps >= 0.9 * best;
    rule.evidence += fmt::format("{}: 1 stream {:.1f} GB/s, best {:.1f}; ", size_text(b), one->gbps, best);
  }
  return rule;
}

// 3. Large copies: chunking over streams pays.
RuleVerdict large_copies_rule(const RuleInputs& in) {
  RuleVerdict rule{"above 100 MB: chunked copies over several streams beat one stream by 10% or more", true, true, ""};
  for (std::size_t b : in.sizes) {
    if (b <= (100u << 20)) continue;
    const auto* one = in.one_stream("h2d", b);
    const double best = in.best("h2d", b, 64, "chunked");
    if (!one || best <= 0) continue;
    rule.held = rule.held && best >= 1.1 * one->gbps;
    rule.evidence += fmt::format("{}: 1 stream {:.1f} GB/s, best chunked {:.1f}; ", size_text(b), one->gbps, best);
  }
  return rule;
}

// 4. Streams beyond the copy engines.
RuleVerdict streams_past_engines_rule(const RuleInputs& in) {
  const int engines = std::max(1, in.copy_engines);
  RuleVerdict rule{fmt::format("more streams than copy engines ({}) add less than 5% bandwidth", in.copy_engines),
                   true, true, ""};
  for (std::size_t b : in.sizes) {
    if (b < (16u << 20)) continue;
    const double within = in.best("h2d", b, engines);
    const double all = in.best("h2d", b, 64);
    if (within <= 0) continue;
    rule.held = rule.held && all <= 1.05 * within;
    rule.evidence += fmt::format("{}: <= {} streams {:.1f} GB/s, any {:.1f}; ", size_text(b), engines, within, all);
  }
  return rule;
}

std::vector<RuleVerdict> judge(const CopyBenchResult& r, const CopyBenchOptions& o) {
  const bool pinned =
      std::any_of(r.rows.begin(), r.rows.end(), [](const CopyMeasurement& m) { return m.memory == "pinned"; });
  const RuleInputs in{r.rows, o.sizes, pinned ? "pinned" : "pageable", r.copy_engines};
  std::vector<RuleVerdict> v{small_copies_rule(in), mid_copies_rule(in), large_copies_rule(in),
                             streams_past_engines_rule(in)};
  for (RuleVerdict& rule : v)
    if (rule.evidence.empty()) {  // nothing measured in the rule's range: no verdict, not "NOT held"
      rule.held = false;
      rule.measured = false;
      rule.evidence = "no measured size in this rule's range";
    }
  return v;
}

}  // namespace

std::vector<std::size_t> default_copy_sizes() {
  std::vector<std::size_t> s;
  for (std::size_t b = 64u << 10; b <= (256u << 20); b *= 4) s.push_back(b);
  s.push_back(512u << 20);
  return s;
}

CopyBenchResult run_copybench(const CopyBenchOptions& opt) {
  CopyBenchOptions o = opt;
  if (o.sizes.empty()) o.sizes = default_copy_sizes();
  CopyBenchResult r;
  const std::size_t max_bytes = *std::max_element(o.sizes.begin(), o.sizes.end());
  const int max_streams = *std::max_element(o.streams.begin(), o.streams.end());
  Runner run{o, {}, nullptr, {}};
  cuda::DeviceBuffer device;
  if (o.cpu) {
    r.device = "cpu (memcpy; no copy engines)";
    run.fake_device.resize(max_bytes);
  } else {
    cudaDeviceProp p{};
    CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    r.device = p.name;
    r.copy_engines = p.asyncEngineCount;
    device = cuda::DeviceBuffer(max_bytes);
    run.device = device.as();
    for (int s = 0; s < max_streams; ++s) run.streams.emplace_back();
  }
  const std::vector<std::string> memories = o.cpu ? std::vector<std::string>{"pageable"}
                                                  : std::vector<std::string>{"pinned", "pageable", "registered"};
  for (const std::string& memory : memories) {
    // One host buffer per kind, allocated once (pinning 512 MB takes a while).
    std::optional<HostBuffer> plain;
    std::optional<RegisteredBuffer> registered;
    std::uint8_t* host = nullptr;
    if (memory == "registered") {
      registered.emplace(max_bytes);
      host = registered->data();
    } else {
      plain.emplace(max_bytes, memory == "pinned" ? HostMemory::pinned : HostMemory::pageable);
      host = plain->data();
    }
    std::memset(host, 0x5A, max_bytes);  // touch every page before timing
    for (const char* dir : {"h2d", "d2h"})
      for (std::size_t b : o.sizes) {
        auto add = [&](const std::string& method, int n, std::size_t piece) {
          const double ms = run.time_ms(host, b, std::string(dir) == "h2d", method, n, piece);
          r.rows.push_back({memory, dir, method, b, n, ms, b / (ms / 1e3) / 1e9});
        };
        add("sync", 1, 0);
        for (int n : o.streams) add("async", n, 0);
        if (b >= 4 * o.chunk_bytes)
          for (int n : o.streams)
            if (n > 1) add("chunked", n, o.chunk_bytes);
      }
  }
  r.verdicts = judge(r, o);
  return r;
}

nlohmann::json CopyBenchResult::json() const {
  nlohmann::json j = {{"schema_version", copybench_schema_version}, {"kind", "copybench"}, {"device", device},
                      {"copy_engines", copy_engines}};
  for (const auto& m : rows)
    j["rows"].push_back({{"memory", m.memory}, {"direction", m.direction}, {"method", m.method}, {"bytes", m.bytes},
                         {"streams", m.streams}, {"ms", m.ms}, {"GB_per_s", m.gbps}});
  for (const auto& v : verdicts)
    j["rules"].push_back({{"rule", v.rule}, {"held", v.measured ? nlohmann::json(v.held) : nlohmann::json(nullptr)},
                          {"evidence", v.evidence}});
  return j;
}

std::string copybench_table(const CopyBenchResult& r) {
  // One line per (memory, direction, size): sync, then GB/s per stream count, best chunked.
  std::string t = r.copy_engines > 0 ? fmt::format("copybench on {} (copy engines: {}), GB/s\n", r.device, r.copy_engines)
                                     : fmt::format("copybench on {}, GB/s\n", r.device);
  std::vector<int> streams;
  for (const auto& m : r.rows)
    if (m.method == "async" && std::find(streams.begin(), streams.end(), m.streams) == streams.end())
      streams.push_back(m.streams);
  t += fmt::format("{:<11} {:<4} {:>7} {:>7}", "memory", "dir", "size", "sync");
  for (int s : streams) t += fmt::format(" {:>6}", fmt::format("x{}", s));
  t += fmt::format(" {:>8}\n", "chunked");
  std::map<std::tuple<std::string, std::string, std::size_t>, std::vector<const CopyMeasurement*>> groups;
  std::vector<std::tuple<std::string, std::string, std::size_t>> order;
  for (const auto& m : r.rows) {
    auto key = std::make_tuple(m.memory, m.direction, m.bytes);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&m);
  }
  for (const auto& key : order) {
    const auto& g = groups[key];
    t += fmt::format("{:<11} {:<4} {:>7}", std::get<0>(key), std::get<1>(key), size_text(std::get<2>(key)));
    double chunked = 0;
    for (const auto* m : g)
      if (m->method == "sync") t += fmt::format(" {:>7.1f}", m->gbps);
    for (int s : streams)
      for (const auto* m : g)
        if (m->method == "async" && m->streams == s) t += fmt::format(" {:>6.1f}", m->gbps);
    for (const auto* m : g)
      if (m->method == "chunked") chunked = std::max(chunked, m->gbps);
    t += chunked > 0 ? fmt::format(" {:>8.1f}\n", chunked) : fmt::format(" {:>8}\n", "-");
  }
  t += "rules of thumb:\n";
  for (const auto& v : r.verdicts)
    t += fmt::format("  [{}] {}\n        {}\n", !v.measured ? "not measured" : v.held ? "held" : "NOT held", v.rule,
                     v.evidence);
  return t;
}

}  // namespace vidpipe
