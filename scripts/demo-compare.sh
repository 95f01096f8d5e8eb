#!/usr/bin/env bash
# The comparison scripts/demo.sh ends with, on its own so that the GPU machine runs it with
# its own binary (scripts/device/run-on-device.sh ladder):
#   bash scripts/demo-compare.sh path/to/vidpipe [more bench options]
# With a CUDA device: the copy modes on the bundled clip, whole pipeline and GPU side alone
# (frames preloaded), each as naive -> best with the ratio and both verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: demo-compare.sh VIDPIPE [bench options]}
shift
devices=$("$bin" probe --input assets/sample-4k.mp4 2>/dev/null | sed -n 's/^CUDA devices: //p')
if [ "${devices:-0}" -gt 0 ]; then
  echo "Sync vs async on this GPU, the bundled clip (vidpipe bench --preload 64 --brief; bench.json, bench.png):"
  "$bin" bench --config config/bench.yaml --preload 64 --brief "$@" 2>/dev/null
else
  echo "No CUDA device here, so the GPU stage ran on its CPU twins: copies are plain memcpy and"
  echo "nothing overlaps, so there is no sync/async comparison to show. docs/BENCHMARKS.md has the"
  echo "H200's figures and the commands that produced them."
fi
