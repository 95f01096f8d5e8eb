// Nothing a run writes may land on what it reads: checked once the config is loaded and
// before anything is opened, so a refused run touches no file.
#pragma once
#include "config/config.hpp"

namespace vidpipe {

// Throws ConfigError naming the key, the output and the input when an output the run would
// write (the sink, its temporary name, the report, the trace, and with `bench` bench.json and
// bench.chart) is the same file as an input, however either is spelt (relative, through
// symlinks, hard links: the same device and inode).
void refuse_outputs_onto_inputs(const Config& config, bool bench);

// Throws ConfigError naming the key when an output cannot be written where it is asked for
// (its folder does not exist, or the sink's container cannot hold the video): found before
// the run rather than after it.
void check_output_places(const Config& config, bool bench);

}  // namespace vidpipe
