// Executor on the host: "device" buffers are host vectors, copies are memcpy, and
// the GPU stage is the kernels' CPU references.
#include <cstring>
#include <stdexcept>

#include "executor.hpp"
#include "reference/reference.hpp"

namespace vidpipe {

ColourMatrix matrix_for(const FrameColour& colour) {
  return make_colour_matrix(colour.standard, colour.range);
}

namespace {

class CpuExecutor final : public Executor {
 public:
  explicit CpuExecutor(const ExecutorOptions& o)
      : o_(o),
        lb_(make_letterbox(o.layout.width, o.layout.height, o.net_width, o.net_height, o.align)),
        yuv_(o.layout.frame_bytes),
        bgr_(static_cast<std::size_t>(o.layout.width) * o.layout.height * 3),
        boxed_(static_cast<std::size_t>(o.net_width) * o.net_height * 3),
        tensor_(static_cast<std::size_t>(o.net_width) * o.net_height * 3) {}

  int slots() const override { return 1; }
  std::string device_name() const override { return "cpu"; }
  void wait_idle(int, RunMetrics&) override {}

  void submit(int, std::span<const DecodedFrame> frames, std::span<std::uint8_t* const> outputs,
              RunMetrics& metrics) override {
    const double t0 = now();
    timings_ = {};
    timings_.gpu_begin = t0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const double a = now();
      {
        ScopedWait wait(metrics, WaitKind::copy, o_.clock_origin);
        std::memcpy(yuv_.data(), frames[i].data(), o_.layout.frame_bytes);
      }
      const double b = now();
      reference::yuv_to_bgr(yuv_.data(), o_.layout, matrix_for(frames[i].colour), bgr_.data());
      reference::resize_letterbox(bgr_.data(), o_.layout.width, o_.layout.height, lb_, boxed_.data());
      reference::normalise(boxed_.data(), o_.net_width, o_.net_height, o_.norm, tensor_.data());
      const double c = now();
      {
        ScopedWait wait(metrics, WaitKind::copy, o_.clock_origin);
        std::memcpy(outputs[i], yuv_.data(), o_.layout.frame_bytes);
      }
      const double d = now();
      timings_.h2d_ms += (b - a) * 1e3;
      timings_.compute_ms += (c - b) * 1e3;
      timings_.d2h_ms += (d - c) * 1e3;
    }
    timings_.h2d_bytes = timings_.d2h_bytes = frames.size() * o_.layout.frame_bytes;
    timings_.gpu_end = now();
  }

  BatchTimings wait_done(int) override { return timings_; }
  std::vector<float> read_tensor(int) override { return tensor_; }

 private:
  double now() const { return steady_seconds() - o_.clock_origin; }

  ExecutorOptions o_;
  Letterbox lb_;
  std::vector<std::uint8_t> yuv_, bgr_, boxed_;
  std::vector<float> tensor_;
  BatchTimings timings_;
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor(const ExecutorOptions& options) {
  return std::make_unique<CpuExecutor>(options);
}

}  // namespace vidpipe
