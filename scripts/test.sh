#!/usr/bin/env bash
# Set up, build and run every test (GPU tests skip without a CUDA device), then the
# unit tests and the fault e2e tests (bad input, interruptions, live sources) again under
# AddressSanitizer + UBSan (VIDPIPE_ASAN=0 skips that part) and
# the image and deploy/k8s played by podman (VIDPIPE_CONTAINER=0 skips it), and
# the fuzz targets for a bounded time (VIDPIPE_FUZZ=0 skips them; FUZZ_SECONDS sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's start and the time so far, so that a slow CI run says where its time went.
started=$SECONDS
phase() { echo "== $1 ($((SECONDS - started)) s in)"; }
phase setup
bash scripts/setup.sh
phase "release tests"
ctest --preset default -j"$(nproc)" --timeout 600 --output-on-failure
if [ "${VIDPIPE_ASAN:-1}" != 0 ]; then
  phase "ASan build"
  cmake --preset debug-asan >/dev/null
  cmake --build --preset debug-asan -j"$(nproc)" --target vidpipe_tests vidpipe vidpipe_e2e_tests vidpipe_hostile_tests
  # protect_shadow_gap=0: the CUDA driver maps memory where ASan's shadow gap would be.
  export ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
  phase "ASan unit tests"
  ./build-asan/tests/vidpipe_tests --gtest_brief=1
  # The sanitised vidpipe on the fault paths. The rest of the e2e tests (CPU inference
  # on every frame) would take most of CI's time in a Debug build.
  # The two live drop tests keep 90 frames written through the CPU detector, minutes in a
  # Debug+ASan build: they run in the release ctest above only.
  # Both this and the hostile suite run in two shards at once: their tests mostly wait (on
  # timeouts, live senders, child processes), so two shards finish in about half the time.
  asan_e2e='ReliabilityE2E.*:LiveE2E.*:GpuFaultE2E.*:OutputSafetyE2E.*:Hostile*.*:Files/RefusedBeforeRunning.*-LiveE2E.UdpDropsOldestFramesAndLatencyStaysBounded:LiveE2E.DroppedLiveFramesLeaveGapsInTheOutputsTimes'
  run_sharded() {  # BINARY [gtest args...]: two shards at once, failing if either fails
    local shards=2 failed=0
    for ((i = 0; i < shards; i++)); do
      VIDPIPE_BIN=$PWD/build-asan/app/vidpipe GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$@" --gtest_brief=1 &
    done
    for ((i = 0; i < shards; i++)); do wait -n || failed=1; done
    return $failed
  }
  phase "ASan e2e (fault paths)"
  run_sharded ./build-asan/tests/vidpipe_e2e_tests --gtest_filter="$asan_e2e"
  # The hostile suite (tests/hostile/*.yaml) under the sanitised vidpipe.
  phase "ASan hostile suite"
  run_sharded ./build-asan/tests/vidpipe_hostile_tests
  unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
fi
# The image and the Kubernetes manifests, played by podman (VIDPIPE_CONTAINER=0 skips it).
if [ "${VIDPIPE_CONTAINER:-1}" != 0 ]; then
  phase "image and kube play"
  if [ "$(id -u)" -eq 0 ]; then bash tests/deploy/kube_play_test.sh
  else echo "kube play: skipped (podman's storage and runc here need root)"; fi
fi
if [ "${VIDPIPE_FUZZ:-1}" != 0 ]; then
  phase fuzz
  bash fuzz/run.sh
fi
phase done
