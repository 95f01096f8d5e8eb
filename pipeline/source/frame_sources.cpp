#include "source/frame_sources.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <system_error>
#include <thread>

#include "base/clock.hpp"
#include "base/errors.hpp"
#include "base/nvtx_range.hpp"
#include "base/thread_priority.hpp"

namespace vidpipe {

namespace {

// A steady-clock time point for a pipeline-clock time (steady_seconds()).
std::chrono::steady_clock::time_point steady_time(double seconds) {
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds)));
}

}  // namespace

// Opens the inputs at once, a thread each up to the cores: opening, probing and an NVDEC
// session cost tens of milliseconds an input, which one after another made 64 inputs wait
// seconds. With several inputs the openers are made nicer first (thread_priority.hpp): a CPU
// decoder's frame threads are started as it opens, and take their priority from the opener.
// The first failing input (in the config's order) is the error.
std::vector<std::unique_ptr<VideoReader>> open_readers(const std::vector<ReaderOptions>& options) {
  const std::size_t n = options.size();
  std::vector<std::unique_ptr<VideoReader>> readers(n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto open_next = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        readers[i] = std::make_unique<VideoReader>(options[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const std::size_t threads = std::min<std::size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> openers;
  try {
    for (std::size_t t = 0; t < threads; ++t) openers.emplace_back([&] {
      if (n > 1) make_this_thread_nicer(options.front().reader.nice);
      open_next();
    });
  } catch (const std::system_error&) {
    // No more threads to be had (a memory or process limit): those running open the rest,
    // or this one where none runs (its priority left as it is: it goes on to other work).
  }
  if (openers.empty()) open_next();
  for (std::thread& t : openers) t.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return readers;
}

FrameSources::FrameSources(std::vector<std::unique_ptr<VideoReader>> readers, std::vector<bool> live,
                           const SourceOptions& o)
    : readers_(std::move(readers)),
      live_(std::move(live)),
      options_(o),
      counters_(new Counters[readers_.size()]),
      batcher_(static_cast<int>(readers_.size()), o.queue_frames),
      ended_(readers_.size(), false),
      end_taken_(readers_.size(), false) {
  for (std::size_t i = 0; i < readers_.size(); ++i) readers_[i]->set_source(static_cast<int>(i));
}

FrameSources::~FrameSources() {
  request_stop();
  for (std::thread& t : threads_) t.join();
}

void FrameSources::start() {
  if (!options_.threaded) return;
  {
    std::lock_guard lock(mutex_);
    running_ = count();
  }
  for (int i = 0; i < count(); ++i) threads_.emplace_back([this, i] { read_loop(i); });
}

void FrameSources::read_loop(int i) {
  if (count() > 1) make_this_thread_nicer(options_.decoder_nice);  // decodes (and reconnects) only
  VideoReader& reader = *readers_[i];
  Counters& counters = counters_[i];
  const bool drops = live_[i] && options_.drop != DropPolicy::none;
  try {
    // input.max_frames counts the frames kept, as ffmpeg's -frames:v counts those written: a
    // live input's dropped frames do not count, and once the count is reached no frame is
    // pushed that could drop one of those queued, so exactly that many come out.
    while (options_.max_frames == 0 || counters.decoded - counters.dropped < options_.max_frames) {
      NvtxRange range("decode");
      std::optional<DecodedFrame> f = decode_next(reader);
      if (!f) break;
      ++counters.decoded;
      if (!drops) {
        const double waiting_from = steady_seconds();
        const bool pushed = push_waiting(i, std::move(*f));
        report(ReaderState::blocked, waiting_from, steady_seconds());
        if (!pushed) break;
        continue;
      }
      const int dropped = push_or_drop(i, std::move(*f), options_.drop == DropPolicy::oldest);
      if (dropped < 0) break;
      counters.dropped += dropped;
    }
  } catch (const Interrupted&) {
    // The run's stop cut this reader's I/O short: its input ends here, as on request_stop().
  } catch (...) {
    fail(i);
  }
  std::lock_guard lock(mutex_);
  ended_[i] = true;
  if (--running_ == 0) arrived_.notify_all();
}

void FrameSources::fail(int i) {
  std::string what = "unknown error";
  try {
    throw;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  {
    std::lock_guard lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
  }
  if (count() == 1) {
    request_stop();
    return;
  }
  // Its frames already queued still go out; its reader stops; the other inputs go on.
  spdlog::warn("input {} ('{}') ended on an error; the other {} go on: {}", i, readers_[i]->info().uri,
               count() - 1, what);
  readers_[i]->request_stop();
}

bool FrameSources::push_waiting(int i, DecodedFrame frame) {
  std::unique_lock lock(mutex_);
  room_.wait(lock, [&] { return closed_ || !batcher_.full(i); });
  if (closed_) return false;
  batcher_.push(i, std::move(frame), steady_seconds());
  arrived_.notify_one();
  return true;
}

int FrameSources::push_or_drop(int i, DecodedFrame frame, bool drop_oldest) {
  std::optional<DecodedFrame> discarded;  // released after the lock
  std::unique_lock lock(mutex_);
  if (closed_) return -1;
  if (batcher_.full(i)) {
    if (!drop_oldest) return 1;
    discarded = batcher_.drop_oldest(i);
  }
  batcher_.push(i, std::move(frame), steady_seconds());
  arrived_.notify_one();
  return discarded ? 1 : 0;
}

std::vector<DecodedFrame> FrameSources::pop_batch(std::size_t max) {
  if (!options_.threaded) {
    std::vector<DecodedFrame> one;
    if (std::optional<DecodedFrame> f = next_inline()) one.push_back(std::move(*f));
    return one;
  }
  std::unique_lock lock(mutex_);
  for (;;) {
    // Closed (a stop) or every reader done: what is waiting goes at once, then nothing.
    const bool no_more = closed_ || running_ == 0;
    if (no_more && batcher_.waiting() == 0) return {};
    const double due = batcher_.due_s(max, options_.batch_timeout_s);
    if (no_more || due <= steady_seconds()) break;
    if (std::isinf(due))
      arrived_.wait(lock);
    else
      arrived_.wait_until(lock, steady_time(due));
  }
  std::vector<DecodedFrame> batch = batcher_.take(max);
  room_.notify_all();
  return batch;
}

std::vector<int> FrameSources::take_ended_inputs() {
  std::unique_lock lock(mutex_, std::defer_lock);
  if (options_.threaded) lock.lock();
  std::vector<int> ended;
  for (int i = 0; i < count(); ++i) {
    if (!ended_[i] || end_taken_[i] || batcher_.waiting(i) > 0) continue;
    end_taken_[i] = true;
    ended.push_back(i);
  }
  return ended;
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
    std::optional<DecodedFrame> f;
    try {
      f = decode_next(*readers_[i]);
    } catch (const Interrupted&) {  // the run is stopping: this input ends, as in read_loop
    }
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

std::optional<DecodedFrame> FrameSources::pop() {
  if (!options_.threaded) return next_inline();
  std::vector<DecodedFrame> one = pop_batch(1);
  if (one.empty()) return std::nullopt;
  return std::move(one.front());
}

void FrameSources::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  arrived_.notify_all();
  room_.notify_all();
}

void FrameSources::request_stop() {
  close();
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
