// The pipeline's clock: steady-clock seconds. Every stage's timestamps are this minus
// the pipeline's origin, so host spans and GPU events line up in one timeline.
#pragma once

namespace vidpipe {

double steady_seconds();

}  // namespace vidpipe
