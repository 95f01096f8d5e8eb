// reader.nice: in a run of several inputs, decoder threads may yield to the pipeline's own
// (submit, completion, sink), which every input's frames pass through. Made on the guess that
// with more decoder threads than cores those few threads waited behind the decoders' fair
// shares; measured against itself on an H100 (32-40 CPU-decoded 1080p30 inputs) it did not
// help and dropped more, so it is off unless set (docs/ARCHITECTURE.md, "Many inputs"). One
// input's run keeps one priority: its decoder shares the cores with the sink's encoder.
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
