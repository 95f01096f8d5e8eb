// The naive program a user writes first: decode, blocking copy up, kernels, blocking
// copy down, sink, one frame at a time on one thread.
#include <optional>

#include "run/frame_delivery.hpp"
#include "run/parts.hpp"

namespace vidpipe {

void run_sync(PipelineParts& p) {
  int toggles_seen = 0;
  while (!p.stopping()) {
    const double waiting_from = p.now();
    std::optional<DecodedFrame> frame = p.sources->pop();
    // Inline, pop() decodes (the readers report that); threaded (live inputs), it waits.
    if (p.sources->threaded()) p.metrics->add_span(StageSpan::submit_starved, waiting_from, p.now());
    if (!frame) break;
    apply_mode_toggles(p, toggles_seen);
    AvBufferPtr out = acquire_output(p, frame->source);
    std::uint8_t* out_ptr = out->data;
    p.metrics->add_waits(p.executor->submit(0, {&*frame, 1}, {&out_ptr, 1}, p.metrics->hud_text()));
    const BatchTimings t = p.executor->wait_done(0);
    FrameRecord record = record_for(*frame, t, 1);
    const DetectionList found = p.executor->detections(0).front();
    record.faces = found.count;
    frame.reset();  // the pool buffer goes back to the decoder
    deliver(p, std::move(out), record, found);
    for (const int ended : p.sources->take_ended_inputs()) finish_output(p, ended);
  }
}

}  // namespace vidpipe
