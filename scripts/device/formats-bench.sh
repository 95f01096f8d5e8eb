#!/usr/bin/env bash
# Issue 12's performance rows, on the GPU machine (run-on-device.sh formats): each 4K clip
# decoded by ffmpeg alone (16 threads, to null) and run by vidpipe async (4 streams, inference
# on, null sink), CPU decoder and, for HEVC, NVDEC; 300 frames each (clips looped).
# Usage: formats-bench.sh VIDPIPE_BIN OUT.md
set -uo pipefail
bin=$1 out=$2 frames=300
model="--set gpu.model=assets/models/tiny_face_detector"
make_h264() {  # name pix_fmt
  [ -s /tmp/$1.mp4 ] || ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=3840x2160:rate=30 \
    -vf noise=alls=12:allf=t -frames:v 60 -c:v libx264 -preset veryfast -b:v 20M -pix_fmt $2 -threads 16 /tmp/$1.mp4
}
make_h264 h264-8 yuv420p; make_h264 h264-444 yuv444p; make_h264 h264-10 yuv420p10le
ffmpeg_fps() {
  local start; start=$(date +%s.%N)
  ffmpeg -loglevel error -threads 16 -stream_loop -1 -i "$1" -frames:v $frames -f null - || { echo "n/a"; return; }
  python3 -c "print('%.0f' % ($frames / ($(date +%s.%N) - $start)))"
}
vidpipe_fps() {  # clip decoder
  $bin run --input "$1" $model --set reader.decoder=$2 --set copy.streams=4 --set sink.kind=null \
    --set input.loop=true --set input.max_frames=$frames --set metrics.live=false --report /tmp/fmt.json \
    > /tmp/fmt.log 2>&1 || { echo "failed: $(grep -v '^\[' /tmp/fmt.log | tail -1)"; return; }
  python3 -c "import json; j=json.load(open('/tmp/fmt.json')); i=j['inputs'][0]
print('%.0f (%s, %s, h2d %.1f MB/frame)' % (j['fps'], i['decoder'], j['bottleneck']['stage'], j['h2d_bytes_per_frame']/1e6))"
}
{
  echo "| clip | pixel format | ffmpeg decode-only fps | vidpipe async, CPU decoder | vidpipe async, NVDEC |"
  echo "|---|---|---|---|---|"
  for clip in /tmp/h264-8.mp4 /tmp/h264-444.mp4 /tmp/h264-10.mp4 .device/clips/hevc8-4k.mp4 .device/clips/hevc10-4k.mp4; do
    [ -s "$clip" ] || { echo "| $clip | missing | | | |"; continue; }
    fmt=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,pix_fmt -of csv=p=0 "$clip")
    nvdec="-"; [[ $clip == *hevc* ]] && nvdec=$(vidpipe_fps "$clip" nvdec)
    echo "| $(basename "$clip") | $fmt | $(ffmpeg_fps "$clip") | $(vidpipe_fps "$clip" cpu) | $nvdec |"
  done
} | tee "$out"
