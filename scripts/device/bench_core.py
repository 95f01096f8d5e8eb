#!/usr/bin/env python3
"""The measurements of docs/BENCHMARKS.md, in one run on the GPU machine.

--suite core (issue 2, preprocessing only):
  1. vidpipe async+pinned (null sink) against `ffmpeg -threads T -i clip -f null -` with the
     same decoder threads T: the pipeline should keep up with decode alone.
  2. sync+pageable against async+pinned on the same clip: speed-up and copy-wait shares.
--suite infer (issue 3, face detection on):
  sync vs async, batch 1 vs 8: fps, copy-wait, inference time per frame, faces found.
--suite inputs (issue 5, face detection on):
  1, 2, 4, 7 concurrent 4K inputs, CPU decode vs NVDEC: aggregate and per-input fps.

Prints Markdown tables (pasted into docs/BENCHMARKS.md); all reports go into one JSON file.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def ffmpeg_fps(clip, threads, frames, loops):
    # -stream_loop plays the clip `loops` times, like vidpipe's input.loop + max_frames.
    out = subprocess.run(["ffmpeg", "-hide_banner", "-benchmark", "-threads", str(threads),
                          "-stream_loop", str(loops - 1), "-i", clip, "-f", "null", "-"],
                         capture_output=True, text=True, check=True).stderr
    rtime = float(re.search(r"rtime=([0-9.]+)s", out).group(1))
    return frames * loops / rtime


REPORTS = {}


def vidpipe(binary, clip, out_dir, name, sets, total_frames):
    report = os.path.join("/tmp", "bench-" + name + ".json")
    cmd = [binary, "run", "--config", "config/default.yaml", "--input", clip, "--report", report,
           "--set", "sink.kind=null", "--set", "metrics.live=false", "--set", "gpu.inference=false",
           "--set", "input.loop=true", "--set", f"input.max_frames={total_frames}"]
    for s in sets:
        cmd += ["--set", s]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stdout}{res.stderr}")
    with open(report) as f:
        REPORTS[name] = json.load(f)
        return REPORTS[name]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--clip", required=True)
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--threads", default="4,8,16")
    ap.add_argument("--loops", type=int, default=5, help="play the clip this many times per run")
    ap.add_argument("--suite", choices=["core", "infer", "inputs"], default="core")
    ap.add_argument("--inputs", default="1,2,4,7")
    args = ap.parse_args()
    if args.suite == "infer":
        infer_suite(args)
    elif args.suite == "inputs":
        inputs_suite(args)
    else:
        core_suite(args)
    with open(os.path.join(args.out, f"bench-{args.suite}.json"), "w") as f:
        json.dump(REPORTS, f, indent=1)


def infer_suite(args):
    total = args.frames * args.loops
    t = int(args.threads.split(",")[-1])
    print(f"## face detection on, 4K, {t} decode threads, {total} frames a run\n")
    print("| mode | sink | fps | speed-up | copy-wait | gpu busy | preprocess ms/frame | inference ms/frame | faces/frame |")
    print("|---|---|---|---|---|---|---|---|---|")
    modes = [("sync pageable", "null", ["copy.mode=sync", "copy.memory=pageable"]),
             ("sync pinned", "null", ["copy.mode=sync", "copy.memory=pinned"]),
             ("async pinned x1 b1", "null", ["copy.streams=1"]),
             ("async pinned x2 b1", "null", ["copy.streams=2"]),
             ("async pinned x2 b8", "null", ["copy.streams=2", "copy.batch_size=8"]),
             ("sync pageable", "encode", ["copy.mode=sync", "copy.memory=pageable"]),
             ("async pinned x2 b1", "encode", ["copy.streams=2"])]
    base = {}
    for name, sink, sets in modes:
        sets = [f"reader.threads={t}", "gpu.inference=true"] + sets
        if sink == "encode":
            sets += ["sink.kind=encode", "sink.path=/tmp/bench-out.mp4"]
        r = vidpipe(args.bin, args.clip, args.out, f"infer-{sink}-{name.replace(' ', '-')}", sets, total)
        base.setdefault(sink, r["fps"])
        st = r["stages"]
        print(f"| {name} | {sink} | {r['fps']:.1f} | {r['fps'] / base[sink]:.2f} | {100 * r['copy_wait_share']:.1f}% | "
              f"{100 * r['gpu_busy_share']:.1f}% | {st['preprocess']['mean_ms']:.3f} | {st['inference']['mean_ms']:.3f} | "
              f"{r['faces'] / r['frames']:.2f} |")


def inputs_suite(args):
    per_input = args.frames * args.loops
    cores = os.cpu_count() or 16
    print(f"## concurrent 4K inputs, face detection on, {per_input} frames per input, async pinned x2, "
          f"batch = inputs\n")
    print("| inputs | decoder | aggregate fps | speed-up | slowest input fps | copy-wait | gpu busy | H2D GB/s | "
          "decode threads per input |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in [int(x) for x in args.inputs.split(",")]:
        threads = max(1, cores // n)  # CPU decode shares the machine's cores between the inputs
        base = None
        for decoder in ["cpu", "nvdec"]:
            sets = ["inputs=[" + ", ".join([args.clip] * n) + "]", f"reader.decoder={decoder}",
                    f"reader.threads={threads}", "gpu.inference=true", "copy.streams=2", f"copy.batch_size={n}",
                    f"metrics.warmup_frames={30 * n}"]
            r = vidpipe(args.bin, args.clip, args.out, f"inputs{n}-{decoder}", sets, per_input)
            decoders = {i["decoder"] for i in r["inputs"]}
            base = base or r["fps"]
            slowest = min(i["fps"] for i in r["inputs"])
            print(f"| {n} | {decoder} (ran: {'/'.join(sorted(decoders))}) | {r['fps']:.1f} | {r['fps'] / base:.2f} | "
                  f"{slowest:.1f} | {100 * r['copy_wait_share']:.1f}% | {100 * r['gpu_busy_share']:.1f}% | "
                  f"{r['h2d_GB_per_s']:.1f} | {threads if decoder == 'cpu' else '-'} |")


def core_suite(args):
    total = args.frames * args.loops
    print(f"## async pinned vs ffmpeg decode alone (null sink, {total} frames a run)\n")
    print("| decode threads | ffmpeg -f null fps | vidpipe async pinned fps | ratio | vidpipe frames/wall | vidpipe first frame s |")
    print("|---|---|---|---|---|---|")
    for t in [int(x) for x in args.threads.split(",")]:
        ff = ffmpeg_fps(args.clip, t, args.frames, args.loops)
        r = vidpipe(args.bin, args.clip, args.out, f"async-pinned-t{t}",
                    [f"reader.threads={t}", "copy.mode=async", "copy.memory=pinned", "copy.streams=2"], total)
        whole = r["frames"] / r["wall_s"]
        print(f"| {t} | {ff:.1f} | {r['fps']:.1f} | {r['fps'] / ff:.2f} | {whole:.1f} | {r['first_frame_s']:.2f} |")

    print("\n## sync pageable vs async pinned (null sink)\n")
    print("| decode threads | mode | fps | speed-up | copy-wait | gpu busy | H2D GB/s | D2H GB/s | p99 latency ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in [int(x) for x in args.threads.split(",")]:
        modes = [("sync pageable", ["copy.mode=sync", "copy.memory=pageable"]),
                 ("sync pinned", ["copy.mode=sync", "copy.memory=pinned"]),
                 ("async pinned x1", ["copy.mode=async", "copy.memory=pinned", "copy.streams=1"]),
                 ("async pinned x4", ["copy.mode=async", "copy.memory=pinned", "copy.streams=4"])]
        base = None
        for name, sets in modes:
            r = vidpipe(args.bin, args.clip, args.out, f"{name.replace(' ', '-')}-t{t}", [f"reader.threads={t}"] + sets,
                        total)
            base = base or r["fps"]
            print(f"| {t} | {name} | {r['fps']:.1f} | {r['fps'] / base:.2f} | {100 * r['copy_wait_share']:.1f}% | "
                  f"{100 * r['gpu_busy_share']:.1f}% | {r['h2d_GB_per_s']:.1f} | {r['d2h_GB_per_s']:.1f} | "
                  f"{r['latency']['p99_ms']:.1f} |")


if __name__ == "__main__":
    main()
