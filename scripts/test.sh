#!/usr/bin/env bash
# Set up, build and run every test (GPU tests skip without a CUDA device).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --preset default -j"$(nproc)" --timeout 600
