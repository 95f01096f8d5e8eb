// The pipeline's inputs: one or several readers. Threaded, each reader decodes on its
// own thread into one shared queue, so frames of all inputs meet in the submit loop
// and can share a batch. A live reader never waits for the pipeline: when the queue
// is full it drops a frame by policy (oldest queued or the new one) and counts it,
// which keeps latency bounded; a file reader waits instead. Unthreaded (the sync
// driver on files), pop() decodes inline, round-robin over the readers.
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

#include "base/blocking_queue.hpp"
#include "source/input_config.hpp"
#include "source/video_reader.hpp"

namespace vidpipe {

// What a reader thread was doing, reported for the stage accounting: inside the decoder, or
// waiting for a pool buffer or for room in the queue.
enum class ReaderState { decoding, blocked };
using ReaderObserver = std::function<void(ReaderState state, double begin_s, double end_s)>;

struct SourceOptions {
  bool threaded = true;
  std::size_t queue_frames = 2;
  DropPolicy drop = DropPolicy::oldest;  // for live readers; file readers always wait
  std::int64_t max_frames = 0;           // per input; 0: all
  ReaderObserver observer;               // may be empty
  double clock_origin = 0;               // steady-clock seconds of pipeline time 0, for the observer
};

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
  void request_stop();
  void rethrow();

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
  // reader.next(), reported to the observer as decoding and blocked time.
  std::optional<DecodedFrame> decode_next(VideoReader& reader);
  void report(ReaderState state, double begin, double end) const;
  std::optional<DecodedFrame> next_inline();

  std::vector<std::unique_ptr<VideoReader>> readers_;
  std::vector<bool> live_;
  SourceOptions options_;
  std::unique_ptr<Counters[]> counters_;
  BlockingQueue<DecodedFrame> queue_;
  std::vector<std::thread> threads_;
  std::atomic<int> running_{0};
  std::vector<bool> ended_;  // inline mode
  int next_reader_ = 0;
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace vidpipe
