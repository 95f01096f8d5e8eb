// sink.kind null: frames are dropped, so a run measures the pipeline without an encoder.
#include <atomic>

#include "sink/sink.hpp"

namespace vidpipe {
namespace {

class NullSink final : public Sink {
 public:
  void write(const OutputFrame&) override { ++frames_; }
  void finish() override {}
  std::string describe() const override { return "null"; }
  std::int64_t frames_written() const override { return frames_; }

 private:
  std::atomic<std::int64_t> frames_{0};  // read live by the metrics endpoint
};

}  // namespace

std::unique_ptr<Sink> make_null_sink() { return std::make_unique<NullSink>(); }

}  // namespace vidpipe
