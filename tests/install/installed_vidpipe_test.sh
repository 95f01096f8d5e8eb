#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then the installed vidpipe runs the README's main
# command (the default config on the bundled clip, encoded) from a folder that holds nothing
# of vidpipe's; then again with its data moved and named by VIDPIPE_DATA.
# Usage: installed_vidpipe_test.sh BUILD_DIR
set -euo pipefail
build_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
mkdir "$work/elsewhere"
cd "$work/elsewhere"

frames_in() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }
# A few frames keep it short; everything else is the main command's.
"$work/prefix/bin/vidpipe" -q run --set input.max_frames=4 >summary.txt
grep -q "$work/prefix/share/vidpipe/assets/sample-4k.mp4" report.json ||
  { echo "FAIL: the report does not name the installed clip"; cat report.json; exit 1; }
[ "$(frames_in out.mp4)" = 4 ] || { echo "FAIL: out.mp4 in the working folder does not hold 4 frames"; exit 1; }
[ "$(ls)" = "$(printf 'out.mp4\nreport.json\nsummary.txt')" ] || { echo "FAIL: unexpected files: $(ls)"; exit 1; }

# Moved data, named by VIDPIPE_DATA: found there, not in the (now empty) install folder.
mv "$work/prefix/share/vidpipe" "$work/data"
rm -f out.mp4 report.json
VIDPIPE_DATA="$work/data" "$work/prefix/bin/vidpipe" -q run --set input.max_frames=2 >summary.txt
grep -q "$work/data/assets/models" report.json || { echo "FAIL: VIDPIPE_DATA's model was not used"; exit 1; }
[ "$(frames_in out.mp4)" = 2 ] || { echo "FAIL: out.mp4 does not hold 2 frames with VIDPIPE_DATA"; exit 1; }

# Without the data anywhere it can look, the error names the missing config and where it looked (exit 2).
set +e
VIDPIPE_DATA= "$work/prefix/bin/vidpipe" run --set input.max_frames=2 2>err.txt
code=$?
set -e
[ "$code" = 2 ] && grep -q "default.yaml.*VIDPIPE_DATA" err.txt || { echo "FAIL: missing data: exit $code, $(cat err.txt)"; exit 1; }
echo "PASS: installed vidpipe runs from any folder"
