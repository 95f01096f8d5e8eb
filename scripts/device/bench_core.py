#!/usr/bin/env python3
"""Issue 2's measurements, in one run on the GPU machine:

1. vidpipe async+pinned (null sink) against `ffmpeg -threads T -i clip -f null -` with the
   same decoder threads T: the pipeline should keep up with decode alone.
2. sync+pageable against async+pinned on the same clip: speed-up and copy-wait shares.

Prints a Markdown table (pasted into docs/BENCHMARKS.md) and writes every report under --out.
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


def vidpipe(binary, clip, out_dir, name, sets, total_frames):
    report = os.path.join(out_dir, name + ".json")
    cmd = [binary, "run", "--config", "config/default.yaml", "--input", clip, "--report", report,
           "--set", "sink.kind=null", "--set", "metrics.live=false",
           "--set", "input.loop=true", "--set", f"input.max_frames={total_frames}"]
    for s in sets:
        cmd += ["--set", s]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stdout}{res.stderr}")
    with open(report) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--clip", required=True)
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--threads", default="4,8,16")
    ap.add_argument("--loops", type=int, default=5, help="play the clip this many times per run")
    args = ap.parse_args()

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
                  f"{100 * r['gpu_busy_share']:.1f}% | {r['h2d_gbps']:.1f} | {r['d2h_gbps']:.1f} | "
                  f"{r['latency']['p99_ms']:.1f} |")


if __name__ == "__main__":
    main()
