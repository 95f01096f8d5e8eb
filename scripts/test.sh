#!/usr/bin/env bash
# Set up, build and run every test (GPU tests skip without a CUDA device), then the
# unit tests and the fault e2e tests (bad input, interruptions, live sources) again under
# AddressSanitizer + UBSan (VIDPIPE_ASAN=0 skips that part) and
# the fuzz targets for a bounded time (VIDPIPE_FUZZ=0 skips them; FUZZ_SECONDS sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --preset default -j"$(nproc)" --timeout 600
if [ "${VIDPIPE_ASAN:-1}" != 0 ]; then
  cmake --preset debug-asan >/dev/null
  cmake --build --preset debug-asan -j"$(nproc)" --target vidpipe_tests vidpipe vidpipe_e2e_tests vidpipe_hostile_tests
  # protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap would be.
  export ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  ./build-asan/tests/vidpipe_tests --gtest_brief=1
  # The sanitised vidpipe on the fault paths. The rest of the e2e tests (CPU inference
  # on every frame) would take most of CI's time in a Debug build.
  # The two live drop tests keep 90 frames written through the CPU detector, minutes in a
  # Debug+ASan build: they run in the release ctest above only.
  VIDPIPE_BIN=$PWD/build-asan/app/vidpipe ./build-asan/tests/vidpipe_e2e_tests --gtest_brief=1 \
    --gtest_filter='ReliabilityE2E.*:LiveE2E.*:GpuFaultE2E.*:OutputSafetyE2E.*:Hostile*.*:Files/RefusedBeforeRunning.*-LiveE2E.UdpDropsOldestFramesAndLatencyStaysBounded:LiveE2E.DroppedLiveFramesLeaveGapsInTheOutputsTimes'
  # The hostile suite (tests/hostile/*.yaml) under the sanitised vidpipe, in two shards at once.
  shards=2
  for ((i = 0; i < shards; i++)); do
    VIDPIPE_BIN=$PWD/build-asan/app/vidpipe GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
      ./build-asan/tests/vidpipe_hostile_tests --gtest_brief=1 &
  done
  for ((i = 0; i < shards; i++)); do wait -n; done
  unset ASAN_OPTIONS UBSAN_OPTIONS
fi
if [ "${VIDPIPE_FUZZ:-1}" != 0 ]; then
  bash fuzz/run.sh
fi
