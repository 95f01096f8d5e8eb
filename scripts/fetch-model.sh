#!/usr/bin/env bash
# TinyFaceDetector's weights (MIT) from the npm package @vladmandic/face-api 1.7.15:
# only the weights manifest and its .bin go into assets/models/tiny_face_detector/.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=assets/models/tiny_face_detector
manifest=tiny_face_detector_model-weights_manifest.json
[ -s "$dest/$manifest" ] && [ -s "$dest/tiny_face_detector_model.bin" ] && exit 0
echo "setup: fetching TinyFaceDetector weights (npm @vladmandic/face-api@1.7.15)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent @vladmandic/face-api@1.7.15 >/dev/null)
tar -xzf "$tmp"/vladmandic-face-api-1.7.15.tgz -C "$tmp" \
  "package/model/$manifest" package/model/tiny_face_detector_model.bin
mkdir -p "$dest"
cp "$tmp/package/model/$manifest" "$tmp/package/model/tiny_face_detector_model.bin" "$dest/"
