// The README's exit codes: each error class one line on stderr and its code.
#pragma once

namespace vidpipe {

// Call inside a catch block: prints the one line for the exception being handled and
// returns its exit code (2 config, 3 input/output, 4 GPU, 130 stopped, 1 unexpected).
int exit_code_for_current_exception();

}  // namespace vidpipe
