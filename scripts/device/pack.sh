#!/usr/bin/env bash
# Builds the sm_90 binaries and puts them, with the runtime bundle from ../shared and
# the two libraries it lacks (spdlog, fmt), into .device/ for the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --preset device >/dev/null
cmake --build --preset device -j"$(nproc)"
rm -rf .device && mkdir -p .device/bin .device/lib
cp ../shared/device-lab/runtime-bundle.tar.xz .device/
cp build-device/app/vidpipe build-device/tests/vidpipe_tests build-device/tests/vidpipe_e2e_tests .device/bin/
# The GPU machine's bundle has OpenCV core+imgproc only: the Haar comparison
# (vidpipe_detect_tests) stays on the CPU side.
cp -L /usr/lib/x86_64-linux-gnu/libspdlog.so.1.10 /usr/lib/x86_64-linux-gnu/libfmt.so.9 .device/lib/
strip .device/bin/*
mkdir -p .device/data
cp /usr/share/doc/opencv-doc/examples/data/{messi5.jpg,Megamind.avi,fruits.jpg} .device/data/
du -sh .device
