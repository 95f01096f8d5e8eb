#!/usr/bin/env bash
# Builds the sm_90 binaries and puts them, with the runtime bundle from ../shared and
# the two libraries it lacks (spdlog, fmt), into .device/ for the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --preset device >/dev/null
cmake --build --preset device -j"$(nproc)"
# The HEVC clips below take minutes to encode: kept from the last pack.
keep=$(mktemp -d)
[ -d .device/clips ] && mv .device/clips "$keep/"
rm -rf .device && mkdir -p .device/bin .device/lib
[ -d "$keep/clips" ] && mv "$keep/clips" .device/
rmdir "$keep" 2>/dev/null || true
cp ../shared/device-lab/runtime-bundle.tar.xz .device/
cp build-device/app/vidpipe build-device/tests/vidpipe_tests build-device/tests/vidpipe_e2e_tests .device/bin/
# The GPU machine's bundle has OpenCV core+imgproc only: the Haar comparison
# (vidpipe_detect_tests) stays on the CPU side.
cp -L /usr/lib/x86_64-linux-gnu/libspdlog.so.1.10 /usr/lib/x86_64-linux-gnu/libfmt.so.9 .device/lib/
# metrics.listen's libraries and what cpp-httplib links (TLS, zlib, brotli), which the bundle lacks.
for lib in libcpp-httplib.so.0.11 libprometheus-cpp-core.so.1.0 libssl.so.3 libcrypto.so.3 libz.so.1 \
    libbrotlidec.so.1 libbrotlienc.so.1 libbrotlicommon.so.1; do
  cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')" .device/lib/
done
strip .device/bin/*
# As xz (13 MB -> 4): with ONNX Runtime and the PP-OCR model a call's 64 MiB is tight.
tar -C .device -cJf .device/bin.tar.xz bin && rm -rf .device/bin
# ONNX Runtime's core (45 MB, 12 MB as xz: the call's 64 MiB would not hold it as it is);
# run-on-device.sh unpacks it beside the other libraries.
xz -T"$(nproc)" -6 -c .cache/onnxruntime-1.29.0/lib/libonnxruntime.so.1 > .device/libonnxruntime.so.1.xz
# ONNX Runtime's CUDA provider (230 MB) fits no call even as xz (165 MB): its GPU code for
# other architectures than the lent cards' sm_90 zeroed (fatbin-slim.py; never ship that file),
# it is 38 MB of xz, in .device-ort/ for a call of its own (run-on-device.sh stage-ort).
if [ -s .cache/onnxruntime-1.29.0/lib/libonnxruntime_providers_cuda.so ] && \
    ! [ .device-ort/libonnxruntime_providers_cuda.so.xz -nt .cache/onnxruntime-1.29.0/lib/libonnxruntime_providers_cuda.so ]; then
  rm -rf .device-ort
  mkdir -p .device-ort
  python3 ../shared/device-lab/fatbin-slim.py slim .cache/onnxruntime-1.29.0/lib/libonnxruntime_providers_cuda.so \
    /tmp/libonnxruntime_providers_cuda.so >/dev/null
  xz -T"$(nproc)" -6 -c /tmp/libonnxruntime_providers_cuda.so > .device-ort/libonnxruntime_providers_cuda.so.xz
  rm -f /tmp/libonnxruntime_providers_cuda.so
  cp .cache/onnxruntime-1.29.0/lib/libonnxruntime_providers_shared.so .device-ort/
fi
mkdir -p .device/data
cp /usr/share/doc/opencv-doc/examples/data/{messi5.jpg,Megamind.avi,fruits.jpg} .device/data/
# HEVC clips for the wide-format tests and benchmarks: the GPU machine's ffmpeg has no HEVC
# encoder. Same picture and bit rate in 8-bit 4:2:0 and Main10, so only the format differs.
mkdir -p .device/clips
make_hevc() {  # name size frames pix_fmt
  [ -s ".device/clips/$1.mp4" ] && return
  ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=$2:rate=30" -vf noise=alls=12:allf=t -frames:v "$3" \
    -c:v libx265 -preset ultrafast -b:v 20M -pix_fmt "$4" -x265-params log-level=error ".device/clips/$1.mp4"
}
make_hevc hevc-main10-small 320x240 12 yuv420p10le
# Words on white for the text detector's tests (tests/e2e/onnx_e2e_test.cpp: the same words,
# sizes and places as its `words`): the GPU machine's ffmpeg has no drawtext.
if [ ! -s .device/clips/words.mp4 ]; then
  font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf draw=""
  for w in "HELLO:100:80:72" "video pipeline:520:280:60" "2026:160:440:56" "PINNED:900:600:48"; do
    IFS=: read -r text x y size <<<"$w"
    draw+="${draw:+,}drawtext=fontfile=$font:text='$text':fontsize=$size:fontcolor=black:x=$x:y=$y"
  done
  ffmpeg -loglevel error -y -f lavfi -i color=c=white:s=1280x720:r=10 -vf "$draw" -frames:v 4 -c:v libx264 -qp 0 \
    -pix_fmt yuv420p .device/clips/words.mp4
fi
# Every small ONNX model the tests make (MAKE_MODEL(var, "name", "args"), read from the tests
# themselves so the two cannot drift), made here under its name: the GPU machine has no
# python3-onnx, and tests/support/onnx_models.hpp looks for them in $VIDPIPE_CLIPS there.
grep -rhoE 'MAKE_MODEL\([a-z0-9_]+, "[^"]+", "[^"]*"\)' tests | sed -E 's/.*"([^"]+)", "([^"]*)".*/\1|\2/' |
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086  # the test's arguments, word by word
    /usr/bin/python3 tests/support/make_onnx_model.py ".device/clips/$name.onnx" $args
  done
make_hevc hevc8-4k 3840x2160 60 yuv420p
make_hevc hevc10-4k 3840x2160 60 yuv420p10le
du -sh .device .device-ort 2>/dev/null || true
