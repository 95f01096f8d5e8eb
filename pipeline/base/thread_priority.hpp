// In a run of several inputs, decoder threads yield to the pipeline's own. Such a run has a
// decoder thread or more per input and a handful of pipeline threads (submit, completion,
// sink) that every input's frames pass through. With more decoder threads than cores, the
// decoders kept up on average while latency's tail reached tens of milliseconds and every
// input's queue overflowed at once; fair shares that hold those few threads back are the
// cause left once keyframes decoded together are accounted for (docs/ARCHITECTURE.md,
// "Many inputs"). One input's run is left as it was: its decoder
// shares the cores with the sink's encoder, and what that balance gives is measured
// (docs/BENCHMARKS.md) as it stands.
#pragma once

namespace vidpipe {

// Makes the calling thread `by` nicer than it is (reader.nice; Linux: nice is per thread, and
// threads it starts, FFmpeg's frame threads among them, inherit it). A thread can always be
// made nicer, never less nice again without privilege: call it only on threads that only
// decode. 0 leaves it as it is.
void make_this_thread_nicer(int by);

// The calling thread's nice value.
int this_thread_niceness();

}  // namespace vidpipe
