#!/usr/bin/env bash
# The mutants of scripts/mutants/list.txt that live in GPU code (needs-gpu-*), built for the
# lent H200: each mutated tree's sm_90 binaries go to .device/mutants/<name>/, for
# `run-on-device.sh mutants` to run the GPU tests against (scripts/mutants.sh judges the
# others on the CPU). Run after scripts/device/pack.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
list=$root/scripts/mutants/list.txt
work=${MUTANTS_DIR:-/tmp/vidpipe-gpu-mutants}
rm -rf "$work" "$root/.device/mutants" && mkdir -p "$work/tree" "$root/.device/mutants"
git ls-files -z | xargs -0 cp --parents -t "$work/tree"
export PATH=/usr/local/cuda/bin:$PATH
(cd "$work/tree" && cmake --preset device -B "$work/build" >/dev/null)
for name in $(grep -E '^needs-gpu-' "$list" | cut -d'|' -f1); do
  file=$(grep -E "^$name\|" "$list" | cut -d'|' -f2)
  cp "$work/tree/$file" "$work/original"
  python3 "$root/scripts/mutants/apply.py" "$list" "$name" "$work/tree"
  cmake --build "$work/build" -j"$(nproc)" --target vidpipe vidpipe_tests vidpipe_e2e_tests >"$work/build.log" 2>&1 ||
    { echo "$name: does not build"; cp "$work/original" "$work/tree/$file"; continue; }
  mkdir -p "$root/.device/mutants/$name"
  cp "$work/build/app/vidpipe" "$work/build/tests/vidpipe_tests" "$work/build/tests/vidpipe_e2e_tests" \
    "$root/.device/mutants/$name/"
  strip "$root/.device/mutants/$name/"*
  cp "$work/original" "$work/tree/$file"
  echo "$name: built"
done
du -sh "$root/.device"
