// The pipeline's inputs: one or several readers. Threaded, each reader decodes on its
// own thread into a bounded queue of its own, and the submit loop takes batches from all of
// them fairly (fair_batcher.hpp): a batch goes when full or when its oldest frame has waited
// `batch_timeout_s`. A live reader never waits for the pipeline: when its queue is full it
// drops one of its own frames by policy (oldest queued or the new one) and counts it, which
// keeps latency bounded; a file reader waits instead. With several inputs, one that fails
// ends alone: the others go on, and its error is the run's once they end. Unthreaded (the
// sync driver on files), pop() decodes inline, round-robin over the readers.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <condition_variable>

#include "source/fair_batcher.hpp"
#include "source/input_config.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

// What a reader thread was doing, reported for the stage accounting: inside the decoder, or
// waiting for a pool buffer or for room in the queue.
enum class ReaderState { decoding, blocked };
using ReaderObserver = std::function<void(ReaderState state, double begin_s, double end_s)>;

struct SourceOptions {
  bool threaded = true;
  std::size_t queue_frames = 2;          // per input
  double batch_timeout_s = 0.0;          // pop_batch: how long a batch's oldest frame may wait
  DropPolicy drop = DropPolicy::oldest;  // for live readers; file readers always wait
  std::int64_t max_frames = 0;           // per input; 0: all
  int decoder_nice = 0;                  // reader.nice: how much nicer reader threads run, with several inputs
  ReaderObserver observer;               // may be empty
  double clock_origin = 0;               // steady-clock seconds of pipeline time 0, for the observer
};

// Opens one reader per options at once, a thread each up to the cores; throws the first
// failing input's error (in the options' order).
std::vector<std::unique_ptr<VideoReader>> open_readers(const std::vector<ReaderOptions>& options);

class FrameSources {
 public:
  FrameSources(std::vector<std::unique_ptr<VideoReader>> readers, std::vector<bool> live, const SourceOptions& o);
  ~FrameSources();
  FrameSources(const FrameSources&) = delete;
  FrameSources& operator=(const FrameSources&) = delete;

  void start();
  // The next frame of any input; nullopt when every input has ended, on request_stop(),
  // or when a reader failed (rethrow() then throws its error).
  std::optional<DecodedFrame> pop();
  // Up to `max` frames of any inputs, taken in turn: when `max` are waiting, when the oldest
  // has waited options().batch_timeout_s, or what is left once every input has ended.
  // Empty when nothing more will come.
  std::vector<DecodedFrame> pop_batch(std::size_t max);
  // Inputs that have ended (done, failed or stopped) since the last call and whose every
  // frame has been popped: called by the thread that pops, after a pop, their frames are all
  // in that batch or before it, and their outputs can be finalised once it is delivered.
  std::vector<int> take_ended_inputs();
  void request_stop();
  void rethrow();
  const SourceOptions& options() const { return options_; }

  int count() const { return static_cast<int>(readers_.size()); }
  bool threaded() const { return options_.threaded; }
  VideoReader& reader(int i) { return *readers_[i]; }
  const VideoReader& reader(int i) const { return *readers_[i]; }
  bool live(int i) const { return live_[i]; }
  std::int64_t decoded(int i) const { return counters_[i].decoded; }
  std::int64_t dropped(int i) const { return counters_[i].dropped; }
  std::int64_t dropped_total() const;

 private:
  struct Counters {
    std::atomic<std::int64_t> decoded{0}, dropped{0};
  };
  void read_loop(int i);
  // A reader's error: with several inputs it ends that input alone (a warning now, the
  // run's error at the end); with one it stops the run.
  void fail(int i);
  bool push_waiting(int i, DecodedFrame frame);        // false once closed
  int push_or_drop(int i, DecodedFrame frame, bool drop_oldest);  // dropped count, -1 once closed
  void close();
  // reader.next(), reported to the observer as decoding and blocked time.
  std::optional<DecodedFrame> decode_next(VideoReader& reader);
  void report(ReaderState state, double begin, double end) const;
  std::optional<DecodedFrame> next_inline();

  std::vector<std::unique_ptr<VideoReader>> readers_;
  std::vector<bool> live_;
  SourceOptions options_;
  std::unique_ptr<Counters[]> counters_;
  mutable std::mutex mutex_;  // guards the batcher, closed_, running_ and (threaded) ended_
  std::condition_variable arrived_, room_;
  FairBatcher<DecodedFrame> batcher_;
  bool closed_ = false;
  int running_ = 0;          // reader threads still reading
  std::vector<std::thread> threads_;
  std::vector<bool> ended_;  // reader done: set by its thread, or by next_inline
  std::vector<bool> end_taken_;  // take_ended_inputs has told of it
  int next_reader_ = 0;
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace vidpipe
