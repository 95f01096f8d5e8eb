#!/usr/bin/env bash
# ONNX Runtime 1.29 (MIT) from the npm registry, versions and checksums pinned, into an
# ignored cache (.cache/onnxruntime-1.29.0: include/ and lib/, the layout CMake's
# onnxruntime_ROOT expects; a user with Microsoft's own release folder points there instead):
#   - the core library from onnxruntime-node@1.29.0: the build that can host the CUDA
#     provider (the core of the Unity package below says "not enabled in this build");
#   - the C/C++ headers from com.github.asus4.onnxruntime@0.4.9 (ORT_API_VERSION 29);
#   - the CUDA provider (built for CUDA 13; cuDNN 9 is loaded at run time) from
#     com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9, only where there is a GPU or
#     VIDPIPE_ORT_CUDA=1 asks for it (180 MB to fetch; CI runs the CPU provider).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.cache/onnxruntime-1.29.0
registry=https://registry.npmjs.org
core_tgz=onnxruntime-node/-/onnxruntime-node-1.29.0.tgz
core_sha512=WjiVVB72riILz8HbYvxvmjKyE/WmkYoSfKY++axo5jAR609HQg8MwiG/HhShpTcJfmmAdzxxmB+MMST3A+SiPA==
headers_tgz=com.github.asus4.onnxruntime/-/com.github.asus4.onnxruntime-0.4.9.tgz
headers_sha512=BkzxduSZ9IkeDP6Q8lz2TFU2ie7hSSvS7ZIfzMooExoq0CNzJnuuGaUJ7IsojBgqO4ouD1jXah8OYyJbCN29Fg==
cuda_tgz=com.github.asus4.onnxruntime.linux-x64-gpu/-/com.github.asus4.onnxruntime.linux-x64-gpu-0.4.9.tgz
cuda_sha512=FopIhNE/Ng+v2X65wVc9clPCBCvhvA53Hxo2U0Kf5fGdVsC7iCA+mZ0KLWggcQAj7TIZ6pNidR4AC10g74Xo6w==

want_cuda=${VIDPIPE_ORT_CUDA:-}
[ -z "$want_cuda" ] && { [ -e /dev/nvidia0 ] || nvidia-smi -L >/dev/null 2>&1; } && want_cuda=1
have_core() { [ -s "$dest/lib/libonnxruntime.so.1" ] && [ -s "$dest/include/onnxruntime_cxx_api.h" ]; }
have_cuda() { [ -s "$dest/lib/libonnxruntime_providers_cuda.so" ]; }
have_core && { [ "$want_cuda" != 1 ] || have_cuda; } && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Fetches a package's tarball and checks it against its pinned npm integrity (sha512).
fetch() {
  local path=$1 sha512=$2 file=$tmp/$(basename "$1")
  echo "setup: fetching $(basename "$path") (npm registry)"
  curl -fsSL --retry 3 -o "$file" "$registry/$path"
  local got
  got=$(python3 -c "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1], 'rb').read()).digest()).decode())" "$file")
  if [ "$got" != "$sha512" ]; then
    echo "setup: $(basename "$path"): checksum mismatch (sha512 $got, pinned $sha512)" >&2
    exit 1
  fi
  echo "$file"
}

mkdir -p "$dest/lib" "$dest/include"
if ! have_core; then
  core=$(fetch "$core_tgz" "$core_sha512" | tail -1)
  tar -xzf "$core" -C "$tmp" package/bin/napi-v6/linux/x64/libonnxruntime.so.1
  cp "$tmp/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" "$dest/lib/"
  ln -sf libonnxruntime.so.1 "$dest/lib/libonnxruntime.so"
  headers=$(fetch "$headers_tgz" "$headers_sha512" | tail -1)
  hdir='package/Plugins/iOS~/onnxruntime.xcframework/ios-arm64/onnxruntime.framework/Headers'
  tar -xzf "$headers" -C "$tmp" "$hdir"
  cp "$tmp/$hdir"/*.h "$dest/include/"
fi
if [ "$want_cuda" = 1 ] && ! have_cuda; then
  cuda=$(fetch "$cuda_tgz" "$cuda_sha512" | tail -1)
  tar -xzf "$cuda" -C "$tmp" package/Plugins/Linux/x64/libonnxruntime_providers_cuda.so \
    package/Plugins/Linux/x64/libonnxruntime_providers_shared.so
  cp "$tmp"/package/Plugins/Linux/x64/libonnxruntime_providers_{cuda,shared}.so "$dest/lib/"
fi
