#!/usr/bin/env bash
# Builds the fuzz targets with clang and runs each for a bounded time from a seed corpus
# (the shipped configs; tiny clips made here). Files under fuzz/regressions/<target>/ are
# inputs that once crashed: they are replayed first, so a fixed crash stays fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
cmake -S fuzz -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build build-fuzz -j"$(nproc)"
corpus=build-fuzz/corpus
mkdir -p $corpus/config $corpus/decode
cp config/*.yaml $corpus/config/
if [ ! -s $corpus/decode/seed.mp4 ]; then
  for spec in "mp4:-c:v libx264" "ts:-c:v libx264 -f mpegts" "avi:-c:v mpeg4" "mkv:-c:v libx264"; do
    ext=${spec%%:*}
    ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=5 -frames:v 3 ${spec#*:} -pix_fmt yuv420p \
      $corpus/decode/seed.$ext
  done
fi
export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1
for target in config decode; do
  regressions=fuzz/regressions/$target
  if compgen -G "$regressions/*" >/dev/null; then
    ./build-fuzz/fuzz_$target "$regressions"/*
  fi
  ./build-fuzz/fuzz_$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix=build-fuzz/crash-$target- $corpus/$target > build-fuzz/fuzz-$target.log 2>&1 || { tail -40 build-fuzz/fuzz-$target.log; echo "fuzz: fuzz_$target failed, input kept as build-fuzz/crash-$target-*"; exit 1; }
  grep -E "^Done" build-fuzz/fuzz-$target.log
done
# The third target: the whole run path (the sanitised binary where scripts/test.sh built it).
run_bin=${VIDPIPE_RUN_BIN:-build-asan/app/vidpipe}
[ -x "$run_bin" ] || run_bin=build/app/vidpipe
mkdir -p $corpus/run
if [ ! -s $corpus/run/seed.y4m ]; then
  for spec in "mp4:-c:v libx264 -pix_fmt yuv420p" "mkv:-c:v libx264 -pix_fmt yuv444p" "ts:-c:v libx264 -f mpegts" \
      "avi:-c:v mpeg4" "png:-frames:v 1" "y4m:-pix_fmt yuv420p"; do
    ext=${spec%%:*}
    ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=5 -frames:v 4 ${spec#*:} $corpus/run/seed.$ext
  done
  ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=5 -f lavfi -i sine=d=1 -frames:v 4 -c:v libx264 \
    -c:a aac -shortest $corpus/run/seed-audio.mp4 || true
fi
python3 fuzz/run_path_fuzz.py "$run_bin" $corpus/run "$seconds"
echo "fuzz: no crash in ${seconds}s per target"
