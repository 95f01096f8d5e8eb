#!/usr/bin/env bash
# Set up, build and run every test (GPU tests skip without a CUDA device), then the
# unit tests again under AddressSanitizer + UBSan (VIDPIPE_ASAN=0 skips that part) and
# the fuzz targets for a bounded time (VIDPIPE_FUZZ=0 skips them; FUZZ_SECONDS sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --preset default -j"$(nproc)" --timeout 600
if [ "${VIDPIPE_ASAN:-1}" != 0 ]; then
  cmake --preset debug-asan >/dev/null
  cmake --build --preset debug-asan -j"$(nproc)" --target vidpipe_tests
  # protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap would be.
  ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ./build-asan/tests/vidpipe_tests --gtest_brief=1
fi
if [ "${VIDPIPE_FUZZ:-1}" != 0 ]; then
  bash fuzz/run.sh
fi
