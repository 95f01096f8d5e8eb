#!/usr/bin/env python3
"""One Markdown table of vidpipe beside its peers (issue 16), from what
`run-on-device.sh peers` measured in the same call: the PyTorch peer's JSON
(scripts/device/peer_torch.py), vidpipe's reports, and the two transcodes' wall times.

Usage: peers_table.py DIR   (DIR holds peer-torch.json, vp-*.json and transcode.json)
"""
import glob
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def fmt(value, unit=""):
    return f"{value:.3f}{unit}" if isinstance(value, float) and value < 10 else (
        f"{value:.1f}{unit}" if isinstance(value, (int, float)) else str(value))


def ratio(a, b):
    return f"{a / b:.2f}x" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b > 0 else "-"


def best_torch(inference, batch):
    timed = {k: v for k, v in inference.items() if k.endswith(f" b{batch}") and isinstance(v, (int, float))}
    name = min(timed, key=timed.get)
    return name, timed[name]


def main():
    d = sys.argv[1]
    torch = load(os.path.join(d, "peer-torch.json"))
    vp = {os.path.basename(p)[3:-5]: load(p) for p in glob.glob(os.path.join(d, "vp-*.json"))}
    transcode = load(os.path.join(d, "transcode.json"))
    inf = torch["inference_ms"]
    print(f"PyTorch {torch['torch']} (cuDNN {torch['cudnn']}) on {torch.get('gpu', '?')}; check: "
          f"{torch['check']['faces']} faces on {torch['check']['frames']} frames match vidpipe's "
          f"(lowest IoU {torch['check']['lowest_iou']:.3f})\n")
    print("Inference: ms per frame of network + box decode on a batch already on the GPU (vidpipe's also runs")
    print("the NMS there; its figure is the inference stage's CUDA-event time in a one-stream preloaded run).\n")
    print("| what | PyTorch | vidpipe | vidpipe / PyTorch (>1: vidpipe faster) |")
    print("|---|---|---|---|")
    for batch in (1, 8):
        ours = vp[f"infer-b{batch}"]["stages"]["inference"]["mean_ms"]
        for name, ms in inf.items():
            if name.endswith(f" b{batch}"):
                print(f"| inference ms/frame, {name} | {fmt(ms)} | {fmt(ours)} | {ratio(ms, ours)} |")
        launched = vp[f"infer-b{batch}-launched"]["stages"]["inference"]["mean_ms"]
        print(f"| vidpipe with `gpu.cuda_graphs: false` (18 launches a batch), b{batch} | - | {fmt(launched)} | - |")
        name, ms = best_torch(inf, batch)
        print(f"| **inference b{batch}, fastest PyTorch ({name})** | **{fmt(ms)}** | **{fmt(ours)}** | "
              f"**{ratio(ms, ours)}** |")
    loops = torch.get("loop_fps", {})
    naive, best_async = vp["preload-sync-pageable"], max(
        (r for k, r in vp.items() if k.startswith("preload-async")), key=lambda r: r["fps"])
    print(f"| preloaded 4K loop fps, naive (pageable, sync) | {fmt(loops.get('naive', '-'))} | "
          f"{fmt(naive['fps'])} | {ratio(naive['fps'], loops.get('naive'))} |")
    print(f"| **preloaded 4K loop fps, tuned / best async ({best_async['mode']})** | "
          f"**{fmt(loops.get('tuned', '-'))}** | **{fmt(best_async['fps'])}** | "
          f"**{ratio(best_async['fps'], loops.get('tuned'))}** |")
    enc = vp["encode"]
    ours_wall = transcode["vidpipe_fps"]
    print(f"| 4K file to file, libx264 {transcode['preset']} crf {transcode['crf']} GOP {transcode.get('gop', '-')}, "
          f"{transcode['threads']} threads, "
          f"fps over the whole process (ffmpeg transcode / vidpipe run, inference on) | "
          f"{fmt(transcode['ffmpeg_fps'])} | {fmt(ours_wall)} | {ratio(ours_wall, transcode['ffmpeg_fps'])} |")
    print(f"\nvidpipe encode run: {enc['fps']:.1f} fps after its warm-up, {enc['bottleneck']['evidence']}")
    print(f"vidpipe best async preloaded row: {best_async['bottleneck']['evidence']}")


if __name__ == "__main__":
    main()
