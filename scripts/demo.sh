#!/usr/bin/env bash
# The main job: set up, then run the default config on the bundled 4K clip.
# Writes out.mp4 and report.json in the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/app/vidpipe run --config config/default.yaml "$@"
