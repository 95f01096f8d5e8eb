// The async driver (DESIGN.md's threads), as three named loops in the manner of
// FFmpeg's fftools: the submit loop (the calling thread) batches decoded frames into
// slots, the completion loop waits for each slot's batch in submission order and
// returns its input buffers, the sink loop writes frames out. They talk only through
// two bounded queues and the count of completed slots.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "base/blocking_queue.hpp"
#include "run/frame_delivery.hpp"
#include "run/parts.hpp"

namespace vidpipe {
namespace {

struct InFlight {
  int slot = 0;
  std::vector<DecodedFrame> frames;
  std::vector<AvBufferPtr> outputs;
  std::vector<int> ended_inputs;  // their last frames are in this batch or before it
};

// A frame for its sink, or (no buffer) the word that input `ended` has no more.
struct Delivery {
  AvBufferPtr buffer;
  FrameRecord record;
  DetectionList found;
  int ended = -1;
};

// First exception from any thread wins; the others are consequences of the shutdown.
class ErrorSlot {
 public:
  void capture() {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
  }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
};

class AsyncDriver {
 public:
  explicit AsyncDriver(PipelineParts& p)
      : p_(p),
        slots_(p.executor->slots()),
        batch_(std::max(1, p.batch_size())),
        in_flight_(slots_),
        to_sink_(static_cast<std::size_t>(slots_) * batch_) {}

  void run() {
    std::thread completion([this] { guarded([this] { completion_loop(); }); to_sink_.close(); });
    std::thread sink;
    try {
      sink = std::thread([this] { guarded([this] { sink_loop(); }); });
    } catch (...) {  // no thread to be had (a memory limit): a joinable one left would terminate
      close_all();
      completion.join();
      throw;
    }
    guarded([this] { submit_loop(); });
    in_flight_.close();
    completion.join();
    sink.join();
    error_.rethrow();
  }

 private:
  // Pops frames into batches and queues each on the next slot once that slot is free.
  void submit_loop() {
    for (std::int64_t submitted = 0;; ++submitted) {
      InFlight job = collect_batch();
      if (job.frames.empty()) return;
      job.slot = static_cast<int>(submitted % slots_);
      if (!wait_for_slot(job.slot, submitted)) return;
      std::vector<std::uint8_t*> out_ptrs;
      for (const DecodedFrame& f : job.frames) {
        job.outputs.push_back(acquire_output(p_, f.source));
        out_ptrs.push_back(job.outputs.back()->data);
      }
      p_.metrics->add_waits(p_.executor->submit(job.slot, job.frames, out_ptrs, p_.metrics->hud_text()));
      // NVDEC frames are in the slot now: their decoder surfaces go back at once.
      for (DecodedFrame& f : job.frames)
        if (f.on_device()) f.frame.reset();
      if (!in_flight_.push(std::move(job))) return;
    }
  }

  // Up to a batch of frames, fairly from every input (FrameSources::pop_batch: full, or its
  // oldest frame has waited copy.batch_timeout_ms); frames of one input side by side, so
  // their preprocessing shares a launch.
  InFlight collect_batch() {
    InFlight job;
    if (sources_ended_) return job;
    const double waiting_from = p_.now();
    job.frames = p_.sources->pop_batch(static_cast<std::size_t>(batch_));
    p_.metrics->add_span(StageSpan::submit_starved, waiting_from, p_.now());
    sources_ended_ = job.frames.empty();
    job.ended_inputs = p_.sources->take_ended_inputs();
    std::stable_sort(job.frames.begin(), job.frames.end(),
                     [](const DecodedFrame& a, const DecodedFrame& b) { return a.source < b.source; });
    return job;
  }

  // The slot's device work must be done and the completion loop finished with it.
  bool wait_for_slot(int slot, std::int64_t submitted) {
    p_.metrics->add_waits(p_.executor->wait_idle(slot));
    std::unique_lock lock(done_mutex_);
    done_cv_.wait(lock, [&] { return completed_ > submitted - slots_ || aborted_; });
    return !aborted_;
  }

  // Waits for each slot's batch in submission order and passes its frames on.
  void completion_loop() {
    while (std::optional<InFlight> job = in_flight_.pop()) {
      const BatchTimings t = p_.executor->wait_done(job->slot);
      const std::vector<DetectionList> found = p_.executor->detections(job->slot);
      const int n = static_cast<int>(job->frames.size());
      for (int i = 0; i < n; ++i) {
        FrameRecord r = record_for(job->frames[i], t, n);
        r.faces = found[i].count;
        if (!to_sink_.push({std::move(job->outputs[i]), r, found[i]})) break;
      }
      for (const int ended : job->ended_inputs) to_sink_.push({.ended = ended});
      job->frames.clear();  // input buffers back to the pool
      {
        std::lock_guard lock(done_mutex_);
        ++completed_;
      }
      done_cv_.notify_all();
    }
  }

  void sink_loop() {
    int toggles_seen = 0;
    for (;;) {
      const double waiting_from = p_.now();
      std::optional<Delivery> d = to_sink_.pop();
      p_.metrics->add_span(StageSpan::sink_starved, waiting_from, p_.now());
      if (!d) return;
      if (d->ended >= 0) {
        finish_output(p_, d->ended);
        continue;
      }
      deliver(p_, std::move(d->buffer), d->record, d->found);
      apply_mode_toggles(p_, toggles_seen);
    }
  }

  // Runs a loop; an exception stops every loop and is kept for run() to throw.
  template <class Loop>
  void guarded(Loop loop) {
    try {
      loop();
    } catch (...) {
      error_.capture();
      close_all();
    }
  }

  void close_all() {
    {
      std::lock_guard lock(done_mutex_);
      aborted_ = true;
    }
    in_flight_.close();
    to_sink_.close();
    p_.sources->request_stop();
    done_cv_.notify_all();
  }

  PipelineParts& p_;
  const int slots_;
  const int batch_;
  bool sources_ended_ = false;  // submit loop only
  BlockingQueue<InFlight> in_flight_;
  BlockingQueue<Delivery> to_sink_;
  ErrorSlot error_;
  // The submit loop may reuse slot k only after the completion loop has finished with it.
  std::mutex done_mutex_;
  std::condition_variable done_cv_;
  std::int64_t completed_ = 0;
  bool aborted_ = false;
};

}  // namespace

void run_async(PipelineParts& parts) { AsyncDriver(parts).run(); }

}  // namespace vidpipe
