#!/usr/bin/env bash
# The main job: set up, then run the default config on the bundled 4K clip (out.mp4 and
# report.json in the repository root). Where there is a CUDA device it then shows what
# vidpipe is for: the copy modes side by side on the same clip, the whole pipeline and the
# GPU side alone (frames preloaded into memory), each with its frame rate, its ratio to the
# naive program and its verdict on what bounds it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/app/vidpipe run --config config/default.yaml "$@"
devices=$(./build/app/vidpipe probe --input assets/sample-4k.mp4 2>/dev/null | sed -n 's/^CUDA devices: //p')
echo
if [ "${devices:-0}" -gt 0 ]; then
  echo "Sync vs async on this GPU (vidpipe bench; bench.json, bench.png):"
  ./build/app/vidpipe bench --config config/bench.yaml --preload 64 2>/dev/null
else
  echo "No CUDA device here, so the GPU stage ran on its CPU twins: copies are plain memcpy and"
  echo "nothing overlaps, so there is no sync/async comparison to show. docs/BENCHMARKS.md has the"
  echo "H200's figures and the commands that produced them."
fi
