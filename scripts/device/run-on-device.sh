#!/usr/bin/env bash
# Runs on the lent GPU machine from the repository root (see docs/BENCHMARKS.md):
# unpacks the runtime bundle, runs the GPU and e2e tests, then the benchmarks.
# Modes: stage-ort (alone: unpack .device-ort's CUDA provider for the next call) | onnx | onnx-tests | onnx-faces | onnx-streams | tests | unit (the GPU and unit tests, not e2e) | sanitize | soak | tools | infer | bench | inputs | ladder | encode | formats | peers | startup |
# density | density-phase | held | serve | mixed | mutants | all (all but inputs, ladder, encode, formats, peers, startup, held and mutants);
# several at once: "tests,formats".
# Needs .device/ (made by scripts/device/pack.sh) carried along. Logs go to $OUT.
set -uo pipefail
what=${1:-all}
if [ "$what" = stage-ort ]; then
  # A call of its own, carrying only .device-ort: ONNX Runtime's CUDA provider unpacked into
  # .ort-rt/ (ignored, so it stays in the machine's checkout for the next call while it is held).
  mkdir -p .ort-rt && xz -dc .device-ort/libonnxruntime_providers_cuda.so.xz > .ort-rt/libonnxruntime_providers_cuda.so \
    && cp .device-ort/libonnxruntime_providers_shared.so .ort-rt/ && ls -la .ort-rt && exit 0
  exit 2
fi
[ -e .device/bin.tar.xz ] && [ ! -e .device/bin/vidpipe ] && tar -C .device -xJf .device/bin.tar.xz
# A call without the carried assets would spend its whole time limit on failing tests.
for need in .device/bin/vidpipe assets/models/tiny_face_detector assets/sample-4k.mp4; do
  [ -e "$need" ] || { echo "run-on-device: $need is missing: carry .device, assets/models and assets/sample-4k.mp4 (scripts/setup.sh and scripts/device/pack.sh make them)" >&2; exit 2; }
done
mkdir -p /tmp/rt && tar -C /tmp/rt -xJf .device/runtime-bundle.tar.xz && cp -a .device/lib/. /tmp/rt/lib/
[ -e .device/libonnxruntime.so.1.xz ] && xz -dc .device/libonnxruntime.so.1.xz > /tmp/rt/lib/libonnxruntime.so.1
export LD_LIBRARY_PATH=/tmp/rt/lib PATH=/tmp/rt/bin:$PATH VIDPIPE_SOURCE_DIR=$PWD VIDPIPE_BIN=$PWD/.device/bin/vidpipe
if [ -s .ort-rt/libonnxruntime_providers_cuda.so ]; then
  # The CUDA provider beside the core (ONNX Runtime looks there); it loads CUDA 13's cuBLAS
  # and cudart from the toolkit and cuDNN 9 from the system's folder.
  cp .ort-rt/libonnxruntime_providers_{cuda,shared}.so /tmp/rt/lib/
  export LD_LIBRARY_PATH=/tmp/rt/lib:/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu VIDPIPE_ORT_CUDA_REQUIRED=1
  echo "ONNX Runtime's CUDA provider staged (tests that need it fail without it)"
else
  echo "no ONNX Runtime CUDA provider staged (.ort-rt/): ONNX models run on the CPU provider"
fi
export VIDPIPE_TEST_DATA=$PWD/.device/data  # opencv-doc's images (the GPU machine has no opencv-doc)
export VIDPIPE_CLIPS=$PWD/.device/clips     # HEVC clips pack.sh made (no HEVC encoder there)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
status=0
mode() { [[ ",$what," == *",$1,"* ]]; }  # one of the comma-separated modes asked for
megamind4k() {  # Megamind (real faces) stretched to 4K: the bundled ffmpeg has no pad filter.
  [ -s /tmp/megamind4k.mp4 ] || ffmpeg -loglevel error -y -i .device/data/Megamind.avi -an -vf scale=3840:2160 \
    -c:v libx264 -preset veryfast -b:v 30M -pix_fmt yuv420p -threads 16 /tmp/megamind4k.mp4
}
megamind1080() {  # Megamind (real faces, 23.98 fps) at 1080p retimed to 30 fps, a keyframe every 2 s
  [ -s /tmp/megamind1080.mp4 ] || ffmpeg -loglevel error -y -i .device/data/Megamind.avi -an \
    -vf scale=1920:1080,fps=30 -c:v libx264 -preset veryfast -b:v 8M -g 60 -pix_fmt yuv420p -threads 16 /tmp/megamind1080.mp4
}
faces1080() {  # the bundled clip at 1080p
  [ -s /tmp/faces1080.mp4 ] || ffmpeg -loglevel error -y -i assets/sample-4k.mp4 -vf scale=1920:1080 -an \
    -c:v libx264 -preset veryfast -b:v 12M -pix_fmt yuv420p -threads 16 /tmp/faces1080.mp4
}
vp="$VIDPIPE_BIN run --config config/default.yaml --set gpu.model=assets/models/tiny_face_detector --set metrics.live=false"
# Issue 16's file-to-file job, for the peers and startup modes: the bundled clip, 600 frames,
# the same encoder, preset, crf, threads and keyframe spacing on both sides (250: ffmpeg's
# libx264 default; vidpipe's own is 2 s).
threads=16
vp_transcode="$vp --set input.loop=true --set input.max_frames=600 --set reader.threads=$threads
  --set sink.threads=$threads --set sink.codec=libx264 --set sink.preset=veryfast --set sink.crf=23 --set sink.gop=250
  --set sink.path=/tmp/vp-enc.mp4"
ffmpeg_transcode="ffmpeg -loglevel error -y -threads $threads -stream_loop 6 -i assets/sample-4k.mp4 -frames:v 600 -an
  -threads $threads -c:v libx264 -preset veryfast -crf 23 /tmp/ffmpeg-enc.mp4"
if mode all || mode tests || mode unit; then
  .device/bin/vidpipe_tests 2>&1 | tee "$OUT/unit.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests? ran" ; st=${PIPESTATUS[0]}
  ((st)) && status=$st && grep -E "FAILED|Failure" -A5 "$OUT/unit.log" | head -60
fi
if mode all || mode tests; then
  .device/bin/vidpipe_e2e_tests 2>&1 | tee "$OUT/e2e.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests? ran" ; st=${PIPESTATUS[0]}
  ((st)) && status=$st && grep -E "FAILED|Failure" -A8 "$OUT/e2e.log" | head -80
fi
if mode all || mode soak; then
  # Issue 6: 100,000 frames through the async pipeline (inference on), memory after warm-up vs end;
  # and a GPU out-of-memory run that must end in one clear message, exit code 4.
  ffmpeg -loglevel error -y -i .device/data/Megamind.avi -an -vf scale=640:360 -c:v libx264 -preset veryfast \
    -pix_fmt yuv420p /tmp/megamind360.mp4
  $VIDPIPE_BIN run --input /tmp/megamind360.mp4 --set gpu.model=assets/models/tiny_face_detector --set sink.kind=null \
    --set input.loop=true --set input.max_frames=${SOAK_FRAMES:-100000} --set metrics.warmup_frames=1000 \
    --set metrics.live=false --report $OUT/soak.json 2>&1 | grep -v "^\[" | tail -4
  python3 -c "import json; j=json.load(open('$OUT/soak.json')); print('soak', j['frames'], 'frames', j['fps'], 'fps, kept', j['frames_kept'])
for m in j['memory']['samples']: print('  after %7d frames: rss %.1f MiB, device %.1f MiB' % (m['frames'], m['rss_mib'], m['device_mib'] or -1))"
  ffmpeg -loglevel error -y -i .device/data/Megamind.avi -an -frames:v 30 -vf scale=3840:2160 \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p /tmp/oom4k.mp4
  $VIDPIPE_BIN run --input /tmp/oom4k.mp4 --set gpu.model=assets/models/tiny_face_detector --set sink.kind=null \
    --set copy.streams=32 --set copy.batch_size=64 > $OUT/oom.txt 2>&1; echo "oom exit code $?" >> $OUT/oom.txt
  grep -v "^\[" $OUT/oom.txt
fi
if mode all || mode tools; then
  # Issue 4: vidpipe bench (inference on) on the 4K Megamind clip, copybench, a trace and its timeline.
  megamind4k
  $VIDPIPE_BIN bench --config config/bench.yaml --input /tmp/megamind4k.mp4 --set input.max_frames=540 \
    --set gpu.model=assets/models/tiny_face_detector --set bench.json=$OUT/bench.json --set bench.chart=$OUT/bench.png \
    2>&1 | grep -v "^\[" | tee "$OUT/bench-table.txt"
  $VIDPIPE_BIN copybench --out $OUT/copybench.json --chart $OUT/copybench.png 2>&1 | tee "$OUT/copybench.txt"
  $VIDPIPE_BIN run --input /tmp/megamind4k.mp4 --set sink.kind=null --set copy.streams=2 --set input.max_frames=120 \
    --set metrics.live=false --trace /tmp/trace.json --report /tmp/trace-report.json | tail -3
  $VIDPIPE_BIN trace-png --trace /tmp/trace.json --png $OUT/trace.png --start 0.25 --window 40
  xz -9 -c /tmp/trace.json > $OUT/trace.json.xz
fi
if mode all || mode sanitize; then
  # Issue 6: compute-sanitizer over the GPU tests (the device build has -lineinfo, so a
  # report names the source line). The fault test traps on purpose: left out.
  gpu_tests=${SANITIZE_FILTER:-'*Gpu*:Modes/*'}
  compute-sanitizer --tool memcheck --error-exitcode 9 .device/bin/vidpipe_tests --gtest_filter="$gpu_tests" \
    > "$OUT/memcheck.log" 2>&1; echo "memcheck exit $?"; grep -E "ERROR SUMMARY|tests? ran|PASSED|FAILED" "$OUT/memcheck.log"
  [[ -n ${SANITIZE_FILTER:-} ]] || compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 .device/bin/vidpipe_tests \
    --gtest_filter='FaceLayersGpu.*:FaceNetGpu.*:ExecutorGpu*:NvdecGpu.*' > "$OUT/racecheck.log" 2>&1
  echo "racecheck exit $?"; grep -E "RACECHECK SUMMARY|Race reported|at .*\.cu:[0-9]+|tests? ran" "$OUT/racecheck.log" | head -20
fi
if mode inputs; then
  # Issue 5: 1..7 concurrent 4K inputs, CPU decode vs NVDEC, face detection on.
  megamind4k
  python3 scripts/device/bench_core.py --suite inputs --inputs "${BENCH_INPUTS:-1,2,4,7}" --bin "$VIDPIPE_BIN" \
    --clip /tmp/megamind4k.mp4 --frames "${BENCH_FRAMES:-150}" --loops 1 --out "$OUT" | tee "$OUT/bench-inputs.md"
fi
if mode all || mode bench || mode infer; then
  megamind4k
  python3 scripts/device/bench_core.py --suite infer --bin "$VIDPIPE_BIN" --clip /tmp/megamind4k.mp4 --frames 270 \
    --loops 2 --out "$OUT" | tee "$OUT/bench-infer.md"
fi
if mode all || mode bench; then
  clip=/tmp/in4k.mp4
  ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=3840x2160:rate=30 -vf noise=alls=20:allf=t -frames:v 300 \
    -c:v libx264 -preset veryfast -b:v 30M -pix_fmt yuv420p -threads 16 $clip
  python3 scripts/device/bench_core.py --bin "$VIDPIPE_BIN" --clip $clip --frames 300 --out "$OUT" \
    ${BENCH_THREADS:+--threads $BENCH_THREADS} | tee "$OUT/bench.md"
fi
if mode formats; then
  # Issue 12: 4K 10-bit and 4:4:4 against the same picture in 8-bit 4:2:0, async with inference
  # on, beside ffmpeg's decode-only rate for each clip; one table (formats.md).
  bash scripts/device/formats-bench.sh "$VIDPIPE_BIN" "$OUT/formats.md"
fi
if mode encode; then
  # Issue 11: 4K in, 4K and 1080p out through libx264 (inference on), CPU decoder and NVDEC:
  # with NVDEC the encoder has every core to itself. "preload" takes the decoder off the path
  # (the clip's 90 frames decoded once, then replayed): what libx264 alone reaches at each size.
  # "nvdec2" and "nvdec3" split the file over two and three NVDEC sessions (reader.decoders;
  # this one-GOP clip is split pass by pass as it loops).
  for decoder in cpu nvdec nvdec2 nvdec3 preload; do
    for size in 4k 1080p; do
      scale=""; [[ $size == 1080p ]] && scale="--set sink.width=1920"
      source="--set reader.decoder=$decoder"; [[ $decoder == preload ]] && source="--set input.preload=90"
      [[ $decoder == nvdec[23] ]] && source="--set reader.decoder=nvdec --set reader.decoders=${decoder#nvdec}"
      $vp --set input.loop=true --set input.max_frames=600 $source --set sink.path=/tmp/enc.mp4 \
        --report $OUT/encode-$decoder-$size.json $scale > /dev/null 2>&1
      python3 -c "import json; j=json.load(open('$OUT/encode-$decoder-$size.json')); print('encode $decoder $size: %.1f fps (%s decoder ran); %s' % (j['fps'], j['inputs'][0]['decoder'], j['bottleneck']['evidence']))"
    done
    python3 -c "import json; a=json.load(open('$OUT/encode-$decoder-4k.json')); b=json.load(open('$OUT/encode-$decoder-1080p.json'))
print('  $decoder decoder: 1080p out / 4K out = %.2fx' % (b['fps'] / a['fps']))"
  done
  # What one NVDEC session gives ffmpeg itself on this clip: its hwaccel (the path vidpipe
  # takes) and the cuvid decoder (NVIDIA's own parser, frames queued ahead).
  for dec in "-hwaccel cuda -hwaccel_output_format cuda" "-c:v h264_cuvid"; do
    log=$(ffmpeg -hide_banner -benchmark $dec -stream_loop 6 -i assets/sample-4k.mp4 -frames:v 600 -an -f null - 2>&1)
    rtime=$(grep -oE "rtime=[0-9.]+" <<<"$log") || rtime="failed: $(tail -1 <<<"$log")"
    echo "  ffmpeg $dec decode-only 600 frames: $rtime"
  done
fi
if mode peers; then
  # Issue 16: vidpipe beside the PyTorch peer (scripts/device/peer_torch.py) and ffmpeg's own
  # transcode, one table (peers.md). Every figure from this one call.
  megamind4k
  $vp --input /tmp/megamind4k.mp4 --set sink.kind=null --set copy.mode=sync --set input.max_frames=60 \
    --detections /tmp/vp-detections.jsonl --report '' > /dev/null 2>&1
  preload="--input /tmp/megamind4k.mp4 --set sink.kind=null --set input.preload=64 --set input.loop=true --set input.max_frames=3000"
  for batch in 1 8; do  # one stream: the inference events time the detector alone, nothing beside it
    for graphs in true false; do
      $vp $preload --set copy.streams=1 --set copy.batch_size=$batch --set gpu.cuda_graphs=$graphs \
        --report $OUT/vp-infer-b$batch$([[ $graphs == false ]] && echo -launched).json > /dev/null 2>&1
    done
  done
  $vp $preload --set copy.mode=sync --set copy.memory=pageable --report $OUT/vp-preload-sync-pageable.json > /dev/null 2>&1
  for shape in "2 1" "4 1" "4 4" "4 8"; do
    set -- $shape
    $vp $preload --set copy.streams=$1 --set copy.batch_size=$2 --report $OUT/vp-preload-async-x$1-b$2.json > /dev/null 2>&1
  done
  # The file-to-file job: whole-process wall time, the best of two runs of each, taken in turn
  # (the machine is shared).
  vidpipe_fps=0 ffmpeg_fps=0
  best() { python3 -c "print(max($1, 600 / ($(date +%s.%N) - $2)))"; }
  for round in 1 2; do
    start=$(date +%s.%N)
    $vp_transcode --report $OUT/vp-encode.json > /dev/null 2>&1
    vidpipe_fps=$(best $vidpipe_fps $start)
    start=$(date +%s.%N)
    $ffmpeg_transcode
    ffmpeg_fps=$(best $ffmpeg_fps $start)
  done
  echo "{\"ffmpeg_fps\": $ffmpeg_fps, \"vidpipe_fps\": $vidpipe_fps, \"threads\": $threads, \"preset\": \"veryfast\"," \
    "\"crf\": 23, \"gop\": 250}" > $OUT/transcode.json
  python3 scripts/device/peer_torch.py --check-clip /tmp/megamind4k.mp4 --detections /tmp/vp-detections.jsonl \
    --loop-clip /tmp/megamind4k.mp4 --out $OUT/peer-torch.json > $OUT/peer-torch.log 2>&1 \
    || { status=1; tail -5 $OUT/peer-torch.log; }
  [ -s $OUT/peer-torch.json ] && python3 scripts/device/peers_table.py $OUT | tee $OUT/peers.md
fi
if mode startup; then
  # Issue 16: where the file-to-file job's start and end go (the report's startup/shutdown
  # figures) beside ffmpeg's transcode, taken in turn, and the whole process's wall time.
  variant() {  # name, command...: its summary's fps, start-up and end lines, and its wall time
    local name=$1 start; shift; start=$(date +%s.%N)
    "$@" > $OUT/startup-$name.log 2>&1
    echo "$name: whole process $(python3 -c "print('%.3f' % ($(date +%s.%N) - $start))") s"
    grep -E "^  (fps|start-up|end:)" $OUT/startup-$name.log
  }
  for round in 1 2 3; do
    variant vidpipe-$round $vp_transcode --report $OUT/startup-vidpipe-$round.json
    variant ffmpeg-$round $ffmpeg_transcode
  done
  variant vidpipe-gop-2s $vp_transcode --set sink.gop=0  # the last --set wins
  variant null-sink $vp_transcode --set sink.kind=null
  variant version $VIDPIPE_BIN --version
fi
if mode mutants; then
  # The GPU mutants (scripts/device/pack-mutants.sh): each must fail a GPU test.
  for dir in .device/mutants/*/; do
    name=$(basename "$dir")
    if ! "$dir/vidpipe_tests" --gtest_filter='*Gpu*:*Gpu*/*' --gtest_brief=1 >"$OUT/$name.log" 2>&1; then
      echo "$name: killed by $(grep -m1 -oE '\[  FAILED  \] [^ ]+' "$OUT/$name.log")"
    elif ! VIDPIPE_BIN=$PWD/$dir/vidpipe "$dir/vidpipe_e2e_tests" --gtest_filter='MetricsE2E.*:PipelineE2E.Gpu*' \
        --gtest_brief=1 >>"$OUT/$name.log" 2>&1; then
      echo "$name: killed by $(grep -m1 -oE '\[  FAILED  \] [^ ]+' "$OUT/$name.log")"
    else
      echo "$name: SURVIVED"
    fi
  done
fi
if mode ladder; then
  # Issue 11: the bench ladder on the bundled clip (carried as assets/sample-4k.mp4), decoded
  # and preloaded, each with the limits measured first (the brief at its end is what
  # scripts/demo.sh prints; DEMO=1 also runs scripts/demo-compare.sh itself); then 4K in, 4K
  # and 1080p out through libx264 with inference on, beside ffmpeg's own transcode at both.
  model="--set gpu.model=assets/models/tiny_face_detector"
  $VIDPIPE_BIN bench --config config/bench.yaml --preload 64 $model \
    --set bench.json=$OUT/ladder.json --set bench.chart=$OUT/ladder.png 2>&1 | grep -v "^\["
  if [[ ${DEMO:-0} == 1 ]]; then
    echo "--- scripts/demo-compare.sh (the block scripts/demo.sh ends with):"
    bash scripts/demo-compare.sh "$VIDPIPE_BIN" $model --set bench.json=/tmp/demo.json --set bench.chart=
  fi
  # 600 frames (the 90-frame clip looped): x264's frame threads take a few dozen to fill.
  for size in 4k 1080p; do
    scale=""; [[ $size == 1080p ]] && scale="--set sink.width=1920"
    $VIDPIPE_BIN run --config config/default.yaml $model --set input.loop=true --set input.max_frames=600 \
      --set metrics.live=false --set sink.path=/tmp/out-$size.mp4 --report /tmp/encode-$size.json $scale 2>&1 \
      | grep -v "^\[" | tail -3
    vf=""; [[ $size == 1080p ]] && vf="-vf scale=1920:1080"
    start=$(date +%s.%N)
    ffmpeg -loglevel error -y -stream_loop 6 -i assets/sample-4k.mp4 -frames:v 600 $vf -an -c:v libx264 \
      -preset veryfast -crf 23 /tmp/ffmpeg-$size.mp4
    echo "ffmpeg transcode $size: $(python3 -c "print('%.1f' % (600 / ($(date +%s.%N) - $start)))") fps"
  done
  if [[ ${SWEEP:-0} == 1 ]]; then
    # Does x264 use more than its own thread choice? sink.threads at each size.
    for size in 4k 1080p; do
      scale=""; [[ $size == 1080p ]] && scale="--set sink.width=1920"
      for threads in 16 32 48; do
        $VIDPIPE_BIN run --config config/default.yaml $model --set input.loop=true --set input.max_frames=600 \
          --set metrics.live=false --set sink.path=/tmp/sweep.mp4 --report /tmp/sweep.json $scale \
          --set sink.threads=$threads > /dev/null 2>&1
        python3 -c "import json; j=json.load(open('/tmp/sweep.json')); print('$size sink.threads=$threads: %.1f fps' % j['fps'])"
      done
    done
  fi
  python3 -c "import json; a=json.load(open('/tmp/encode-4k.json')); b=json.load(open('/tmp/encode-1080p.json'))
print('vidpipe encode 4K out: %.1f fps (%s); 1080p out: %.1f fps (%s); ratio %.2fx' % (a['fps'], a['bottleneck']['stage'], b['fps'], b['bottleneck']['stage'], b['fps']/a['fps']))"
fi
if mode density; then
  # Issue 28: many live 1080p30 inputs on one GPU. A real clip (Megamind, 23.98 fps, scaled to
  # 1080p and retimed to 30 fps), looped. bench --density climbs 1, 2, 4, ... live inputs until
  # one is not held; then 64 NVDEC inputs for 60 s after a first second of warm-up, in real
  # time, detection on.
  megamind1080
  density() {  # name decoder max seconds clip [more --set]
    local name=$1 decoder=$2 max=$3 seconds=$4 clip=$5; shift 5
    $VIDPIPE_BIN bench --density --config config/default.yaml --input "$clip" \
      --set gpu.model=assets/models/tiny_face_detector --set reader.decoder=$decoder --set copy.streams=4 \
      --set copy.batch_size=16 --set bench.density_max=$max --set bench.density_seconds=$seconds \
      --set bench.json=$OUT/density-$name.json --set bench.chart=$OUT/density-$name.png "$@" 2>&1 | grep -v "^\[" \
      | tee "$OUT/density-$name.txt"
  }
  runs=" ${DENSITY_RUNS:-1080p-nvdec 1080p-cpu 4k-nvdec 4k-cpu} "  # a call short of time names fewer
  [[ $runs == *" 1080p-nvdec "* ]] && density 1080p-nvdec nvdec ${DENSITY_MAX:-128} ${DENSITY_SECONDS:-5} /tmp/megamind1080.mp4
  [[ $runs == *" 1080p-cpu "* ]] && density 1080p-cpu cpu ${DENSITY_CPU_MAX:-64} ${DENSITY_SECONDS:-5} /tmp/megamind1080.mp4
  [[ $runs == *" 4k-nvdec "* ]] && density 4k-nvdec nvdec 16 3 assets/sample-4k.mp4 --set input.loop=true
  [[ $runs == *" 4k-cpu "* ]] && density 4k-cpu cpu ${DENSITY_CPU_MAX:-64} 3 assets/sample-4k.mp4 --set input.loop=true
fi
if mode density-phase; then
  # Issue 28, CPU decoders: do live copies of one clip fail for their keyframes coming all at
  # once? 32 and 48 inputs, CPU decoders, one run with every input the same clip (keyframes
  # aligned, loops wrapping together), one over 8 variants whose keyframes fall 8 frames
  # apart and whose lengths differ (their loops drift apart), as independent cameras' do, and
  # the same clip with input.stagger (input k starts k/N of the way into it): as it is, with the
  # decoders 10 nicer than the pipeline (reader.nice 10) and with 4-frame input queues.
  # PHASE_INPUTS and PHASE_KINDS choose others, PHASE_SECONDS the seconds of video (11).
  megamind1080
  for j in 0 1 2 3 4 5 6 7; do
    [ -s /tmp/phase$j.mp4 ] || ffmpeg -loglevel error -y -i /tmp/megamind1080.mp4 -an -vf "trim=end_frame=$((339 - 3 * j))" \
      -c:v libx264 -preset veryfast -b:v 8M -g 1000 -sc_threshold 0 \
      -force_key_frames "expr:eq(n,0)+eq(mod(n+$((8 * j)),60),0)" -pix_fmt yuv420p -threads 16 /tmp/phase$j.mp4 &
  done
  wait
  for n in ${PHASE_INPUTS:-32 48}; do
    aligned=$(python3 -c "print(', '.join(['/tmp/megamind1080.mp4'] * $n))")
    staggered=$(python3 -c "print(', '.join('/tmp/phase%d.mp4' % (i % 8) for i in range($n)))")
    for kind in ${PHASE_KINDS:-aligned variants stagger stagger-nice10 stagger-queue4}; do
      list=$aligned; [ $kind = variants ] && list=$staggered
      case $kind in
        aligned|variants) more=(--set input.stagger=false) ;;
        stagger) more=(--set input.stagger=true --trace "$OUT/phase-stagger-$n.trace.json") ;;
        stagger-nice10) more=(--set input.stagger=true --set reader.nice=10) ;;
        stagger-queue4) more=(--set input.stagger=true --set input.queue_frames=4) ;;
      esac
      $VIDPIPE_BIN run --config config/default.yaml --set gpu.model=assets/models/tiny_face_detector \
        --set "inputs=[$list]" --set reader.decoder=cpu --set input.realtime=true --set input.loop=true "${more[@]}" \
        --set input.max_frames=$((30 * ${PHASE_SECONDS:-11})) --set metrics.warmup_frames=$((30 * n)) \
        --set copy.streams=4 --set copy.batch_size=16 \
        --set sink.kind=null --set metrics.live=false --report $OUT/phase-$kind-$n.json > $OUT/phase-$kind-$n.txt 2>&1
      python3 -c "import json; j=json.load(open('$OUT/phase-$kind-$n.json'))
print('$kind $n inputs: %d frames, %d dropped after the first second (%d in all), latency p99 %.1f ms, lag p99 %.1f ms, %.1f fps; %s' % (
  j['frames'], j['frames_dropped_measured'], j['frames_dropped'], j['latency']['p99_ms'], j['live_lag']['p99_ms'], j['fps'],
  j['bottleneck']['evidence']))"
    done
  done
fi
if mode held; then
  # Issue 28's goal in one run: 64 NVDEC inputs of the same clip for 60 s after a first second.
  megamind1080
  list=$(python3 -c "print(', '.join(['/tmp/megamind1080.mp4'] * ${HELD_INPUTS:-64}))")
  start=$(date +%s.%N)
  $VIDPIPE_BIN run --config config/default.yaml --set gpu.model=assets/models/tiny_face_detector \
    --set "inputs=[$list]" --set reader.decoder=nvdec --set input.realtime=true --set input.loop=true \
    --set input.max_frames=$((30 * (${HELD_SECONDS:-60} + 1))) --set metrics.warmup_frames=$((30 * ${HELD_INPUTS:-64})) \
    --set copy.streams=4 --set copy.batch_size=16 \
    --set sink.kind=null --set metrics.live=false --report $OUT/held-64.json 2>&1 | grep -v "^\[" | tee "$OUT/held-64.txt"
  echo "process wall: $(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))") s"
  python3 -c "import json; j=json.load(open('$OUT/held-64.json')); s=j['startup']
print('held: %d inputs, %d frames, %d dropped after the first second (%d in all), latency p99 %.1f ms, lag p99 %.1f ms, first frame out %.2f s, inputs opened in %.2f s' % (
  len(j['inputs']), j['frames'], j['frames_dropped_measured'], j['frames_dropped'], j['latency']['p99_ms'], j['live_lag']['p99_ms'],
  s['first_frame']['delivered_s'], s['inputs_s']))"
fi
if mode mixed; then
  # Issue 32: one file decoded by the CPU decoder and NVDEC sessions at once. Its e2e tests,
  # then the bench ladder (naive ... + NVDEC, + cpu+nvdec, with the limits measured first)
  # on the bundled clip (one GOP: split pass by pass as it loops) and on a real 4K H.264
  # clip (Megamind stretched to 4K, a keyframe every 30 frames), each beside ffmpeg's own
  # decode rate of the same clip.
  .device/bin/vidpipe_tests --gtest_filter='NvdecGpu.*:SplitChroma*:SegmentDealer.*' 2>&1 | tee "$OUT/mixed-unit.log" \
    | grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests? ran"; st=${PIPESTATUS[0]}
  ((st)) && status=$st && grep -E "FAILED|Failure" -A8 "$OUT/mixed-unit.log" | head -60
  .device/bin/vidpipe_e2e_tests --gtest_filter='*Nvdec*:*Mixed*:*Decoders*' 2>&1 | tee "$OUT/mixed-e2e.log" \
    | grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests? ran"; st=${PIPESTATUS[0]}
  ((st)) && status=$st && grep -E "FAILED|Failure" -A8 "$OUT/mixed-e2e.log" | head -60
  [ -s /tmp/megamind4k-g30.mp4 ] || ffmpeg -loglevel error -y -i .device/data/Megamind.avi -an -vf scale=3840:2160 \
    -c:v libx264 -preset veryfast -b:v 30M -g 30 -keyint_min 30 -pix_fmt yuv420p -threads 16 /tmp/megamind4k-g30.mp4
  # MIXED_LIST: the + cpu+nvdec rung's decoders for a second ladder on the bundled clip
  # (default: the CPU decoder and four NVDEC sessions; auto is two).
  list=${MIXED_LIST:-[cpu, nvdec, nvdec, nvdec, nvdec]}
  for run in "assets/sample-4k.mp4 auto" "assets/sample-4k.mp4 $list" "/tmp/megamind4k-g30.mp4 auto"; do
    clip=${run%% *} decoders=${run#* }
    name=$(basename "$clip" .mp4)-$(tr -dc 'a-z0-9' <<<"$decoders" | head -c 24)
    $VIDPIPE_BIN bench --config config/bench.yaml --input "$clip" --set gpu.model=assets/models/tiny_face_detector \
      --set "reader.decoders=$decoders" --set bench.json="$OUT/mixed-$name.json" --set bench.chart="$OUT/mixed-$name.png" \
      2>&1 | grep -v "^\[" | tee "$OUT/mixed-$name.txt"
    start=$(date +%s.%N)
    ffmpeg -loglevel error -stream_loop -1 -i "$clip" -frames:v 1200 -an -f null - \
      && echo "ffmpeg decode $name: $(python3 -c "print('%.1f' % (1200 / ($(date +%s.%N) - $start)))") fps"
  done
fi
if mode onnx || mode onnx-tests; then
  # Issue 35: a user's ONNX model. The GPU tests of the decoders, the normalisation and the
  # CUDA provider on a stream; the e2e tests (text found, GPU run against the CPU run); then
  # (mode onnx) the bench ladder with PP-OCRv4's text detector at 1080p, and the built-in
  # detector's beside it.
  .device/bin/vidpipe_tests --gtest_filter='OnnxGpu.*:*HeatmapGpu*:YoloGpu.*:*NormaliseGpu*:*FaceNet*:*TinyFace*' 2>&1 \
    | tee "$OUT/onnx-unit.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests? ran"; st=${PIPESTATUS[0]}
  ((st)) && status=$st && grep -E "FAILED|Failure" -A8 "$OUT/onnx-unit.log" | head -60
  .device/bin/vidpipe_e2e_tests --gtest_filter='OnnxE2E.*' 2>&1 | tee "$OUT/onnx-e2e.log" \
    | grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests? ran"; st=${PIPESTATUS[0]}
  ((st)) && status=$st && grep -E "FAILED|Failure" -A8 "$OUT/onnx-e2e.log" | head -60
fi
if mode onnx; then
  [ -s /tmp/in1080.mp4 ] || ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=1920x1080:rate=30 -vf noise=alls=12:allf=t \
    -frames:v 300 -c:v libx264 -preset veryfast -b:v 12M -pix_fmt yuv420p -threads 16 /tmp/in1080.mp4
  ocr="--set gpu.model=assets/models/ppocr/ch_PP-OCRv4_det_infer.onnx --set gpu.score_threshold=0.6
    --set gpu.onnx.width=1280 --set gpu.onnx.height=736 --set gpu.onnx.channels=bgr --set gpu.onnx.decoder=heatmap
    --set gpu.onnx.mean=[0.485,0.456,0.406] --set gpu.onnx.std=[0.229,0.224,0.225]"
  # TinyFaceDetector both ways: vidpipe's kernels and the same weights through ONNX Runtime.
  face_onnx="--set gpu.model=assets/models/tiny_face_detector.onnx --set gpu.onnx.decoder=tiny_face
    --set gpu.onnx.mean=[0.458827451,0.449792157,0.381976471]"
  for model in ocr face face-onnx; do
    case $model in
      ocr) sets=$ocr ;;
      face) sets="--set gpu.model=assets/models/tiny_face_detector" ;;
      face-onnx) sets=$face_onnx ;;
    esac
    $VIDPIPE_BIN bench --config config/bench.yaml --input /tmp/in1080.mp4 --set input.max_frames=900 $sets \
      --preload 300 --set bench.json="$OUT/onnx-$model.json" --set bench.chart="$OUT/onnx-$model.png" \
      2>&1 | grep -v "^\[" | tee "$OUT/onnx-$model.txt"
  done
  # The plain loop a user writes first (one thread, pageable copies, the tensor through host
  # memory, ONNX Runtime on its own stream and waited for) against vidpipe's: the same 300
  # preloaded frames, the same model and card, one call.
  for run in "plain:--set copy.mode=sync --set copy.memory=pageable --set gpu.onnx.io=host" \
      "vidpipe:--set copy.mode=async --set copy.streams=4 --set copy.batch_size=4"; do
    name=${run%%:*}
    $VIDPIPE_BIN run --config config/bench.yaml --input /tmp/in1080.mp4 $ocr --set input.preload=300 \
      --set input.loop=true --set input.max_frames=1500 ${run#*:} --report "$OUT/onnx-loop-$name.json" 2>&1 \
      | grep -v "^\[" | head -4 | sed "s/^/$name: /"
  done
fi
if mode onnx-faces; then
  # Issue 35's face models on the GPU: the e2e tests of faces (the built-in detector's NMS is
  # shared with BlazeFace's blended kind), then BlazeFace's ladder at 1080p (its batch is fixed
  # at 1: a batch runs frame by frame on the slot's stream) beside the built-in detector's.
  .device/bin/vidpipe_e2e_tests --gtest_filter='OnnxE2E.*:*Face*:DetectionsE2E.*:OverlayOnFaces.*' 2>&1 \
    | tee "$OUT/faces-e2e.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED)|tests? ran"; st=${PIPESTATUS[0]}
  ((st)) && status=$st && grep -E "FAILED|Failure" -A8 "$OUT/faces-e2e.log" | head -60
  faces1080
  # config/blazeface.yaml's gpu section as --set (bench takes one config: config/bench.yaml).
  blazeface="--set gpu.model=assets/models/blazeface/face_detection_back_256x256_barracuda.onnx
    --set gpu.score_threshold=0.6 --set gpu.iou_threshold=0.3 --set gpu.preprocess.align=centre
    --set gpu.onnx.layout=nhwc --set gpu.onnx.mean=[0.5,0.5,0.5] --set gpu.onnx.std=[0.5,0.5,0.5]
    --set gpu.onnx.decoder=blazeface"
  for model in blazeface built-in; do
    sets="--set gpu.model=assets/models/tiny_face_detector"
    [ $model = blazeface ] && sets=$blazeface
    $VIDPIPE_BIN bench --config config/bench.yaml --input /tmp/faces1080.mp4 $sets --set input.max_frames=900 \
      --preload 300 --set bench.json="$OUT/faces-$model.json" --set bench.chart="$OUT/faces-$model.png" \
      2>&1 | grep -v "^\[" | tee "$OUT/faces-$model.txt"
  done
fi
if mode onnx-streams; then
  # Why BlazeFace through ONNX Runtime slows with more streams: the same preloaded run at 1, 2
  # and 4 streams, each with its trace (per batch, where inference ran on its stream) and report.
  faces1080
  for s in 1 2 4; do
    $VIDPIPE_BIN run -c config/blazeface.yaml --input /tmp/faces1080.mp4 --set sink.kind=null --set input.preload=300 \
      --set input.loop=true --set input.max_frames=900 --set copy.streams=$s --set copy.batch_size=1 \
      --set metrics.live=false --trace "$OUT/bf-streams$s.trace.json" --report "$OUT/bf-streams$s.json" 2>&1 \
      | grep -v "^\[" | head -3 | sed "s/^/$s streams: /"
  done
fi
if mode serve; then
  # Issue 31 on the GPU: the serving process's HTTP tests (inputs added and removed, 100
  # cycles with threads, open files, host and device memory checked, restart, shards).
  for t in serve_control serve_restart serve_live; do
    # Its shipped configs (config/serve.yaml) are this checkout's: the tests run serve from folders of their own.
    VIDPIPE_DATA=$PWD python3 "tests/service/${t}_test.py" "$VIDPIPE_BIN" 2>&1 | tee "$OUT/$t.log" | tail -3; st=${PIPESTATUS[0]}
    ((st)) && status=$st
  done
fi
exit $status
