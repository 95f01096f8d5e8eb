#include "source/frame_sources.hpp"

#include <algorithm>

#include "base/clock.hpp"
#include "base/errors.hpp"
#include "base/nvtx_range.hpp"

namespace vidpipe {

FrameSources::FrameSources(std::vector<std::unique_ptr<VideoReader>> readers, std::vector<bool> live,
                           const SourceOptions& o)
    : readers_(std::move(readers)),
      live_(std::move(live)),
      options_(o),
      counters_(new Counters[readers_.size()]),
      queue_(std::max<std::size_t>(1, o.queue_frames)),
      ended_(readers_.size(), false) {
  for (std::size_t i = 0; i < readers_.size(); ++i) readers_[i]->set_source(static_cast<int>(i));
}

FrameSources::~FrameSources() {
  request_stop();
  for (std::thread& t : threads_) t.join();
}

void FrameSources::start() {
  if (!options_.threaded) return;
  running_ = count();
  for (int i = 0; i < count(); ++i) threads_.emplace_back([this, i] { read_loop(i); });
}

void FrameSources::read_loop(int i) {
  VideoReader& reader = *readers_[i];
  Counters& counters = counters_[i];
  const bool drops = live_[i] && options_.drop != DropPolicy::none;
  try {
    while (options_.max_frames == 0 || counters.decoded < options_.max_frames) {
      NvtxRange range("decode");
      std::optional<DecodedFrame> f = decode_next(reader);
      if (!f) break;
      ++counters.decoded;
      if (!drops) {
        const double waiting_from = steady_seconds();
        const bool pushed = queue_.push(std::move(*f));
        report(ReaderState::blocked, waiting_from, steady_seconds());
        if (!pushed) break;
        continue;
      }
      const int dropped = queue_.push_or_drop(std::move(*f), options_.drop == DropPolicy::oldest);
      if (dropped < 0) break;
      counters.dropped += dropped;
    }
  } catch (...) {
    {
      std::lock_guard lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
    }
    request_stop();
  }
  if (--running_ == 0) queue_.close();
}

std::optional<DecodedFrame> FrameSources::next_inline() {
  for (int tried = 0; tried < count(); ++tried) {
    const int i = next_reader_;
    next_reader_ = (next_reader_ + 1) % count();
    if (ended_[i]) continue;
    if (options_.max_frames > 0 && counters_[i].decoded >= options_.max_frames) {
      ended_[i] = true;
      continue;
    }
    std::optional<DecodedFrame> f = decode_next(*readers_[i]);
    if (!f) {
      ended_[i] = true;
      continue;
    }
    ++counters_[i].decoded;
    return f;
  }
  return std::nullopt;
}

std::optional<DecodedFrame> FrameSources::decode_next(VideoReader& reader) {
  const double pool_wait_before = reader.pool().wait_seconds();
  const double begin = steady_seconds();
  std::optional<DecodedFrame> f = reader.next();
  const double end = steady_seconds();
  // The pool's wait happened inside next(); its place there is not known, its length is.
  const double pool_wait = std::min(end - begin, reader.pool().wait_seconds() - pool_wait_before);
  report(ReaderState::decoding, begin, end - pool_wait);
  if (pool_wait > 0) report(ReaderState::blocked, end - pool_wait, end);
  return f;
}

void FrameSources::report(ReaderState state, double begin, double end) const {
  if (options_.observer && end > begin)
    options_.observer(state, begin - options_.clock_origin, end - options_.clock_origin);
}

std::optional<DecodedFrame> FrameSources::pop() { return options_.threaded ? queue_.pop() : next_inline(); }

void FrameSources::request_stop() {
  queue_.close();
  for (auto& r : readers_) r->request_stop();
}

void FrameSources::rethrow() {
  std::lock_guard lock(error_mutex_);
  if (error_) std::rethrow_exception(error_);
}

std::int64_t FrameSources::dropped_total() const {
  std::int64_t n = 0;
  for (int i = 0; i < count(); ++i) n += dropped(i);
  return n;
}

}  // namespace vidpipe
