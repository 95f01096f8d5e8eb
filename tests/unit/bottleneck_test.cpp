// The bottleneck verdict on synthetic stage timelines: a run is made of frame records and
// host intervals shaped as each kind of bound would leave them, and the verdict must name
// that bound (docs/ARCHITECTURE.md, "Which stage bounds the frame rate").
#include <gtest/gtest.h>

#include <stdexcept>

#include "metrics/prediction.hpp"
#include "metrics/run_metrics.hpp"

namespace vidpipe {
namespace {

constexpr int frames = 200;
constexpr double period = 0.01;  // one frame out every 10 ms
constexpr std::size_t frame_bytes = 12'441'600;  // 4K NV12 each way: 1.24 GB/s at 100 fps

// Fractions of each frame period that the stages spend in each state.
struct Timeline {
  double decoding = 0.1, decode_blocked = 0, submit_starved = 0, copy_wait = 0, compute_wait = 0,
         output_wait = 0, gpu_busy = 0.3, sink_writing = 0.05;
  // How a frame's device span divides: upload, kernels, the rest download.
  double upload_part = 0.1, compute_part = 0.8;
};

Summary run(const Timeline& t, bool sync = false, bool nvdec = false, bool pinned = true,
            const char* input_size_keys = "gpu.preprocess.width") {
  RunMetrics m(0);
  RunShape shape{sync, true, 4};
  shape.nvdec = nvdec;
  shape.pinned = pinned;
  shape.input_size_keys = input_size_keys;
  m.set_shape(shape);
  for (int k = 0; k < frames; ++k) {
    const double at = k * period;
    auto span = [&](StageSpan kind, double from, double share) {
      if (share > 0) m.add_span(kind, at + from * period, at + (from + share) * period);
    };
    span(StageSpan::decoding, 0, t.decoding);
    span(StageSpan::decode_blocked, t.decoding, t.decode_blocked);
    span(StageSpan::submit_starved, 0, t.submit_starved);
    double from = t.submit_starved;
    for (auto [kind, share] : {std::pair{WaitKind::copy, t.copy_wait}, {WaitKind::compute, t.compute_wait},
                               {WaitKind::output_buffer, t.output_wait}}) {
      if (share > 0) m.add_wait(kind, at + from * period, at + (from + share) * period);
      from += share;
    }
    span(StageSpan::sink_writing, 0, t.sink_writing);
    FrameRecord r;
    r.index = k;
    r.gpu_begin = at;
    r.gpu_end = at + t.gpu_busy * period;
    r.h2d_ms = t.upload_part * t.gpu_busy * period * 1e3;
    r.compute_ms = t.compute_part * t.gpu_busy * period * 1e3;
    r.d2h_ms = (1 - t.upload_part - t.compute_part) * t.gpu_busy * period * 1e3;
    r.h2d_bytes = r.d2h_bytes = frame_bytes;
    r.decoded_at = at;
    r.sink_at = at + period;
    m.add_frame(r);
  }
  return m.summarise(frames * period + period);
}

// One timeline per kind of bound, shaped as that bound leaves a run: the stage at the limit
// busy, what feeds it blocked, what it feeds starved.
struct Case {
  const char* name;
  Timeline timeline;
  const char* stage;
};

Timeline with(std::initializer_list<std::pair<double Timeline::*, double>> shares) {
  Timeline t;
  for (auto [field, value] : shares) t.*field = value;
  return t;
}

const Case cases[] = {
    {"decode_bound", with({{&Timeline::decoding, 0.97}, {&Timeline::submit_starved, 0.7}}), "decode"},
    // One stream takes frames in bursts, so the pool runs dry between them and the decoders
    // wait a little; the GPU side still waits far longer (the H200's async x1 rung: 11%, 73%).
    {"decode_bound_in_bursts",
     with({{&Timeline::decoding, 0.89}, {&Timeline::decode_blocked, 0.11}, {&Timeline::submit_starved, 0.73}}),
     "decode"},
    {"copy_bound",
     with({{&Timeline::decode_blocked, 0.8}, {&Timeline::copy_wait, 0.5}, {&Timeline::compute_wait, 0.1},
           {&Timeline::gpu_busy, 0.6}}),
     "copy"},
    {"compute_bound",
     with({{&Timeline::decode_blocked, 0.8}, {&Timeline::compute_wait, 0.6}, {&Timeline::copy_wait, 0.05},
           {&Timeline::gpu_busy, 0.97}, {&Timeline::compute_part, 0.9}}),
     "compute"},
    // One stream, never empty: its upload, kernels and download take turns, none near full
    // (the H200's preloaded async x1 rung: H2D 28%, kernels 45%, D2H 27%).
    {"streams_bound",
     with({{&Timeline::decode_blocked, 0.95}, {&Timeline::copy_wait, 0.28}, {&Timeline::compute_wait, 0.59},
           {&Timeline::gpu_busy, 0.998}, {&Timeline::upload_part, 0.28}, {&Timeline::compute_part, 0.45}}),
     "streams"},
    {"sink_bound",
     with({{&Timeline::decode_blocked, 0.8}, {&Timeline::output_wait, 0.7}, {&Timeline::sink_writing, 0.95}}),
     "sink"},
    {"host_bound", with({{&Timeline::decode_blocked, 0.8}, {&Timeline::copy_wait, 0.05}, {&Timeline::gpu_busy, 0.4}}),
     "host"},
};

const Timeline& timeline_of(const std::string& name) {
  for (const Case& c : cases)
    if (c.name == name) return c.timeline;
  throw std::invalid_argument("no case " + name);
}

class BottleneckOf : public ::testing::TestWithParam<Case> {};

TEST_P(BottleneckOf, NamesTheStageAtTheLimit) {
  const Case& c = GetParam();
  const Summary s = run(c.timeline);
  EXPECT_EQ(s.bottleneck.stage, c.stage) << s.bottleneck.evidence;
  EXPECT_FALSE(s.bottleneck.evidence.empty());
  // The shares the verdict rests on are the timeline's own.
  EXPECT_NEAR(s.shares.submit.starved, c.timeline.submit_starved, 0.02);
  EXPECT_NEAR(s.shares.decode.blocked, c.timeline.decode_blocked, 0.02);
  EXPECT_NEAR(s.shares.copy_wait, c.timeline.copy_wait, 0.02);
  EXPECT_NEAR(s.shares.sink.busy, c.timeline.sink_writing, 0.02);
  EXPECT_NEAR(s.shares.gpu_busy, c.timeline.gpu_busy, 0.02);
}

INSTANTIATE_TEST_SUITE_P(Bounds, BottleneckOf, ::testing::ValuesIn(cases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Bottleneck, EvidenceAndLiftNameTheFiguresAndKeys) {
  const Summary decode = run(timeline_of("decode_bound"));
  EXPECT_NE(decode.bottleneck.evidence.find("4 decoder threads"), std::string::npos) << decode.bottleneck.evidence;
  EXPECT_NE(decode.bottleneck.lift.find("reader.threads"), std::string::npos);
  // NVDEC: the count is of sessions, and more of them is what lifts it.
  const Summary nvdec = run(timeline_of("decode_bound"), false, true);
  EXPECT_NE(nvdec.bottleneck.evidence.find("4 NVDEC sessions"), std::string::npos) << nvdec.bottleneck.evidence;
  EXPECT_EQ(nvdec.bottleneck.lift.find("reader.decoder: nvdec"), std::string::npos) << nvdec.bottleneck.lift;
  EXPECT_NE(nvdec.bottleneck.lift.find("reader.decoders"), std::string::npos) << nvdec.bottleneck.lift;
  // Compute: the keys that set the network's input, where the model has any (an ONNX model of
  // fixed size has none: advising gpu.preprocess.width there would change nothing).
  EXPECT_NE(run(timeline_of("compute_bound")).bottleneck.lift.find("gpu.preprocess.width"), std::string::npos);
  const std::string fixed_model = run(timeline_of("compute_bound"), false, false, true, "").bottleneck.lift;
  EXPECT_EQ(fixed_model.find("network input"), std::string::npos) << fixed_model;
  EXPECT_NE(fixed_model.find("copy.batch_size"), std::string::npos) << fixed_model;
  const std::string sink_lift = run(timeline_of("sink_bound")).bottleneck.lift;
  for (const char* key : {"sink.preset", "sink.codec: h264_nvenc", "sink.width", "sink.threads"})
    EXPECT_NE(sink_lift.find(key), std::string::npos) << key << " missing from: " << sink_lift;
}

TEST(Bottleneck, TooFewStreamsAreNamedWithTheEnginesShares) {
  const Summary s = run(timeline_of("streams_bound"));
  for (const char* figure : {"H2D 28%", "kernels 45%", "D2H 27%", "1 stream held work 100%"})
    EXPECT_NE(s.bottleneck.evidence.find(figure), std::string::npos) << figure << " missing from: " << s.bottleneck.evidence;
  EXPECT_EQ(s.bottleneck.lift.rfind("copy.streams", 0), 0u) << s.bottleneck.lift;
  // Pageable copies hold the submit thread whatever the streams: there the copies bound it.
  Timeline copies_first = timeline_of("streams_bound");
  std::swap(copies_first.copy_wait, copies_first.compute_wait);
  EXPECT_EQ(run(copies_first).bottleneck.stage, "streams") << "pinned";
  EXPECT_EQ(run(copies_first, false, false, false).bottleneck.stage, "copy");
}

// The lift follows what the copies already do: pageable gets pinned; pinned with an engine
// near full (the H200's x4 rungs: H2D 99%) has only fewer bytes a frame left.
TEST(Bottleneck, ACopyBoundNamesWhatIsLeftToLiftIt) {
  const Timeline pageable = timeline_of("copy_bound");
  EXPECT_EQ(run(pageable, false, false, false).bottleneck.lift.rfind("copy.memory: pinned", 0), 0u);
  const Summary pinned = run(pageable);
  EXPECT_EQ(pinned.bottleneck.lift.rfind("copy.streams", 0), 0u) << pinned.bottleneck.lift;
  Timeline link_full = pageable;
  link_full.gpu_busy = 0.99;
  link_full.upload_part = 0.85;
  link_full.compute_part = 0.1;
  const Summary full = run(link_full);
  ASSERT_EQ(full.bottleneck.stage, "copy") << full.bottleneck.evidence;
  EXPECT_NE(full.bottleneck.evidence.find("H2D 84%"), std::string::npos) << full.bottleneck.evidence;
  // What the link carried over the window, not a copy's own rate (which queueing lowers).
  EXPECT_NE(full.bottleneck.evidence.find("1.2 GB/s up, 1.2 GB/s down"), std::string::npos)
      << full.bottleneck.evidence;
  EXPECT_NE(full.bottleneck.lift.find("sink.width"), std::string::npos) << full.bottleneck.lift;
  EXPECT_EQ(full.bottleneck.lift.find("copy.memory"), std::string::npos) << full.bottleneck.lift;
}

// Decoders and GPU side waiting on each other alike: neither is called the bound by decode.
TEST(Bottleneck, ABalancedRunIsNotDecodeBound) {
  Timeline t = timeline_of("decode_bound_in_bursts");
  t.decode_blocked = 0.3;
  t.submit_starved = 0.3;
  EXPECT_NE(run(t).bottleneck.stage, "decode") << run(t).bottleneck.evidence;
  // Either side of the rule's ratio: the GPU side waits four times as long as the decoders.
  t.decode_blocked = 0.15;
  t.submit_starved = 0.55;
  EXPECT_NE(run(t).bottleneck.stage, "decode") << run(t).bottleneck.evidence;
  t.submit_starved = 0.65;
  EXPECT_EQ(run(t).bottleneck.stage, "decode") << run(t).bottleneck.evidence;
}

TEST(Bottleneck, SyncRunIsBoundByWhereItsOneThreadSpentMost) {
  Timeline t;
  t.decoding = 0.2;
  t.copy_wait = 0.55;
  t.compute_wait = 0.15;
  t.sink_writing = 0.05;
  EXPECT_EQ(run(t, true).bottleneck.stage, "copy");
  t.decoding = 0.6;
  t.copy_wait = 0.2;
  EXPECT_EQ(run(t, true).bottleneck.stage, "decode");
}

// The async forecast from a sync run's stage times: the slowest stage sets the rate; with
// one stream a frame's copies and kernels queue behind each other, with two they overlap.
TEST(Prediction, TheSlowestStageSetsTheAsyncRate) {
  Summary sync;
  sync.decode.mean_ms = 4;
  sync.h2d.mean_ms = 2;
  sync.compute.mean_ms = 3;
  sync.d2h.mean_ms = 1;
  sync.sink.mean_ms = 0.5;
  const Prediction two = predict_async(sync, 2);
  EXPECT_EQ(two.bound, "decode");
  EXPECT_NEAR(two.fps, 250, 1e-9);
  // 2 + 3 + 1 ms on one stream: the kernels are busy half of it, the copies a third each
  // way, so the one stream bounds it (as the verdict would call the async run).
  const Prediction one = predict_async(sync, 1);
  EXPECT_EQ(one.bound, "streams");
  EXPECT_NEAR(one.fps, 1e3 / 6, 1e-9);
  sync.decode.mean_ms = 1;
  sync.sink.mean_ms = 8;
  EXPECT_EQ(predict_async(sync, 2).bound, "sink");
  sync.sink.mean_ms = 0.5;
  sync.compute.mean_ms = 20;  // 2 + 20 + 1 ms: the kernels are near full even on one stream
  EXPECT_EQ(predict_async(sync, 1).bound, "compute");
}

}  // namespace
}  // namespace vidpipe
