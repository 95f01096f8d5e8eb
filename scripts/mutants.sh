#!/usr/bin/env bash
# Mutation check: applies each small bug of scripts/mutants/list.txt, one at a time, to a
# scratch copy of the tree, rebuilds and runs the CPU tests (unit first, then e2e and detect,
# stopping at the first failure), and prints which mutants survived. A surviving mutant is
# a bug the suite cannot see. Mutants named needs-gpu-* are in code only a CUDA device runs:
# on a machine without one they are listed as not judged.
#   bash scripts/mutants.sh            all mutants      MUTANTS=name1,name2  a few
# Needs the project built once (scripts/setup.sh); takes about a minute per mutant on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
list=$root/scripts/mutants/list.txt
work=${MUTANTS_DIR:-/tmp/vidpipe-mutants}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c GPU || true)

rm -rf "$work" && mkdir -p "$work/tree"
git ls-files -z | (cd "$root" && xargs -0 cp --parents -t "$work/tree")
ln -s "$root/assets" "$work/tree/assets"  # the model and the bundled clip
export PATH=/usr/local/cuda/bin:$PATH
cmake -S "$work/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache >/dev/null || exit 1
build() { cmake --build "$work/build" -j"$(nproc)" >"$work/build.log" 2>&1; }
build || { echo "mutants: the unmutated tree does not build (see $work/build.log)"; exit 1; }

# A mutant is killed when any CPU test fails; the unit tests first since they are quick.
killed_by_tests() {
  local bin=$work/build/tests
  "$bin/vidpipe_tests" --gtest_brief=1 >"$work/test.log" 2>&1 || return 0
  (cd "$work/build" && ctest -j"$(nproc)" --stop-on-failure --timeout 600 -E '^[A-Za-z]+Gpu' >>"$work/test.log" 2>&1) || return 0
  return 1
}

names=$(grep -E '^[a-z0-9]' "$list" | cut -d'|' -f1)
[ -n "${MUTANTS:-}" ] && names=$(tr ',' '\n' <<<"$MUTANTS")
survived=()
printf '%-52s %s\n' mutant result
for name in $names; do
  file=$(grep -E "^$name\|" "$list" | cut -d'|' -f2)
  cp "$work/tree/$file" "$work/original"
  if ! python3 "$root/scripts/mutants/apply.py" "$list" "$name" "$work/tree"; then
    survived+=("$name (could not be applied)")
    continue
  fi
  if [[ $name == needs-gpu-* && $gpus == 0 ]]; then
    result="not judged: needs a CUDA device"
  elif ! build; then
    result="killed (does not compile)"
  elif killed_by_tests; then
    result="killed: $(grep -m1 -oE '(\[  FAILED  \] [^ ]+|[0-9]+ - [A-Za-z0-9_./]+ \(Failed\))' "$work/test.log" || echo 'a test failed')"
  else
    result="SURVIVED"
    survived+=("$name")
  fi
  printf '%-52s %s\n' "$name" "$result"
  cp "$work/original" "$work/tree/$file"
done
build
echo
if ((${#survived[@]})); then
  echo "survived: ${survived[*]}"
  exit 1
fi
echo "no mutant survived"
