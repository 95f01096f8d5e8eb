// What every driver does around the executor: take an output buffer, turn a batch's
// timings into per-frame records, and hand a finished frame to its sink (with the live
// line and the display's mode key).
#pragma once
#include <cstdint>

#include "memory/av_raii.hpp"
#include "run/parts.hpp"

namespace vidpipe {

// The frame's record with its share of the batch's device timings.
FrameRecord record_for(const DecodedFrame& frame, const BatchTimings& timings, int batch);

// An output buffer for `source`; the wait counts as blocked on the sink.
AvBufferPtr acquire_output(PipelineParts& p, int source);

// The display's s key: applied on the sink thread, taken up by the next submit.
void apply_mode_toggles(PipelineParts& p, int& toggles_seen);

// One frame's trip through the sink, its record completed and filed, its faces logged
// (metrics.detections); counted in p.frames_delivered.
void deliver(PipelineParts& p, AvBufferPtr buffer, FrameRecord record, const DetectionList& found);

// Finalises the output of an input that has ended while others go on (a file done, a
// reader failed), once: it is playable from then on, not only when the run ends.
void finish_output(PipelineParts& p, int source);

}  // namespace vidpipe
