#!/usr/bin/env bash
# The main job: set up, then run the default config on the bundled 4K clip (out.mp4 and
# report.json in the repository root). Where there is a CUDA device it then shows what
# vidpipe is for: the copy modes side by side on the same clip, the whole pipeline and the
# GPU side alone (frames preloaded into memory), each with its frame rate, its ratio to the
# naive program and its verdict on what bounds it (scripts/demo-compare.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/app/vidpipe run --config config/default.yaml "$@"
echo
bash scripts/demo-compare.sh ./build/app/vidpipe
