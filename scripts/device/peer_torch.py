#!/usr/bin/env python3
"""The PyTorch peer (issue 16): TinyFaceDetector as a CUDA engineer would write it in PyTorch,
timed the ways they would run it, beside vidpipe's own figures (scripts/device/peers_table.py).

1. Loads face-api's weights from the manifest and .bin (value = q * scale + min, as
   pipeline/device/face_model.cpp does) into a module with the same layers.
2. Checks it before timing anything: on real frames (the clip's first frames, decoded to
   yuv420p by ffmpeg, bit for bit what vidpipe's reader decodes), its faces must be vidpipe's
   (`vidpipe run --detections`): the same count on every frame, IoU > 0.9 for every face.
3. Times inference (network and box decode on a preprocessed batch already on the GPU) at batch 1 and 8:
   eager, CUDA graphs, torch.compile; and whole loops over 4K frames preloaded in host memory:
   naive (pageable, .cuda(), torch ops, .cpu()) and tuned (pinned, non_blocking, two streams,
   each frame's GPU work replayed from a CUDA graph).

Writes one JSON file (--out); exit 1 if the check fails, with the frame that differs.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from face_api_weights import load_tensors  # noqa: E402  (scripts/, beside this folder)

MEAN_RGB = (117.001, 114.697, 97.404)  # face-api's, as tiny_face_normalisation()
ANCHORS = [(1.603231, 2.094468), (6.041143, 7.080126), (2.882459, 3.518061), (4.266906, 5.178857),
           (9.041765, 10.66308)]
CHANNELS = [3, 16, 32, 64, 128, 256, 512]


def tf_same_pool(x, stride):
    """TensorFlow's 2x2 'same' max pool: -inf padding on the right and bottom where needed."""
    h, w = x.shape[-2:]
    pad_h = max((-(-h // stride) - 1) * stride + 2 - h, 0)
    pad_w = max((-(-w // stride) - 1) * stride + 2 - w, 0)
    return F.max_pool2d(F.pad(x, (0, pad_w, 0, pad_h), value=float("-inf")), 2, stride)


class TinyFaceNet(torch.nn.Module):
    """face-api's TinyYolov2 with separable convolutions (kernels/tiny_face/tiny_face_net.hpp)."""

    def __init__(self, t):
        super().__init__()
        as_param = lambda a: torch.nn.Parameter(torch.from_numpy(np.ascontiguousarray(a)), requires_grad=False)
        self.conv0 = torch.nn.Conv2d(3, 16, 3)
        self.conv0.weight = as_param(t["conv0/filters"].transpose(3, 2, 0, 1))  # [ky][kx][in][out] -> [out][in][ky][kx]
        self.conv0.bias = as_param(t["conv0/bias"])
        self.depthwise = torch.nn.ModuleList()
        self.pointwise = torch.nn.ModuleList()
        for layer in range(1, 6):
            cin, cout = CHANNELS[layer], CHANNELS[layer + 1]
            dw = torch.nn.Conv2d(cin, cin, 3, padding=1, groups=cin, bias=False)
            dw.weight = as_param(t[f"conv{layer}/depthwise_filter"].transpose(2, 3, 0, 1))
            pw = torch.nn.Conv2d(cin, cout, 1)
            pw.weight = as_param(t[f"conv{layer}/pointwise_filter"].transpose(3, 2, 0, 1))
            pw.bias = as_param(t[f"conv{layer}/bias"])
            self.depthwise.append(dw)
            self.pointwise.append(pw)
        self.conv8 = torch.nn.Conv2d(512, 25, 1)
        self.conv8.weight = as_param(t["conv8/filters"].transpose(3, 2, 0, 1))
        self.conv8.bias = as_param(t["conv8/bias"])

    def forward(self, x):
        x = tf_same_pool(F.leaky_relu(self.conv0(x), 0.1), 2)
        for i, (dw, pw) in enumerate(zip(self.depthwise, self.pointwise)):
            x = tf_same_pool(F.leaky_relu(pw(dw(x)), 0.1), 1 if i == 4 else 2)
        return self.conv8(x)


def luma_weights(width, height):
    """Kr, Kb of an untagged clip as vidpipe picks them (source/frame_colour.cpp): BT.709 from
    720 lines up, else BT.601. The clips this script is given carry no colour tags."""
    return (0.2126, 0.0722) if min(width, height) >= 720 else (0.299, 0.114)


class Preprocess:
    """A yuv420p frame on the GPU to the network's input, with torch ops: limited range to
    RGB, bilinear resize into a top-left letterbox, mean subtracted, /255."""

    def __init__(self, width, height, sample_aspect, size, device):
        # As make_letterbox(): fitted at the display aspect, the scale spread back over the
        # stored pixels (Megamind's are not square).
        self.w, self.h, self.size = width, height, size
        fit = min(size / (width * sample_aspect), size / height)
        self.content = (int(height * fit + 0.5), int(width * sample_aspect * fit + 0.5))  # lround, not round-half-even
        self.scale = (fit * sample_aspect, fit)  # network pixels per source pixel, x and y
        self.mean = torch.tensor(MEAN_RGB, device=device).view(1, 3, 1, 1)
        self.kr, self.kb = luma_weights(width, height)

    def __call__(self, yuv):  # uint8 [B, w*h*3/2]
        b, w, h = yuv.shape[0], self.w, self.h
        y = yuv[:, :w * h].view(b, 1, h, w).float()
        uv = yuv[:, w * h:].view(b, 2, h // 2, w // 2).float()
        uv = F.interpolate(uv, scale_factor=2, mode="nearest")  # 4:2:0 sited as vidpipe's kernel reads it
        luma = (y - 16) * (255 / 219)
        cb, cr = (uv[:, :1] - 128) * (255 / 224), (uv[:, 1:] - 128) * (255 / 224)
        kr, kb = self.kr, self.kb
        kg = 1 - kr - kb
        r = luma + 2 * (1 - kr) * cr
        g = luma - 2 * kb * (1 - kb) / kg * cb - 2 * kr * (1 - kr) / kg * cr
        bl = luma + 2 * (1 - kb) * cb
        rgb = torch.cat([r, g, bl], 1).round().clamp(0, 255)  # vidpipe keeps 8-bit BGR between kernels
        small = F.interpolate(rgb, size=self.content, mode="bilinear", align_corners=False).round().clamp(0, 255)
        boxed = torch.zeros(b, 3, self.size, self.size, device=yuv.device)
        boxed[:, :, :self.content[0], :self.content[1]] = small
        return (boxed - self.mean) / 255


class Candidates:
    """Every anchor's box (x0, y0, x1, y1 in source pixels) and score, [B, cells*cells*5, 5]:
    a fixed shape, so it can be captured in a graph and downloaded without a sync. Its
    constant tensors are made once: a graph capture cannot copy from pageable memory."""

    def __init__(self, pre, device):
        cells = pre.size - 2  # TinyFaceShape: a valid 3x3, then five 'same' pools of stride 2
        for _ in range(5):
            cells = -(-cells // 2)
        self.size, self.cells, self.scale = pre.size, cells, pre.scale
        self.col = torch.arange(cells, device=device).view(1, 1, 1, cells)
        self.row = torch.arange(cells, device=device).view(1, 1, cells, 1)
        anchors = torch.tensor(ANCHORS, device=device)
        self.anchor_w, self.anchor_h = anchors[:, 0].view(1, 5, 1, 1), anchors[:, 1].view(1, 5, 1, 1)

    def __call__(self, out):
        b, cells, size = out.shape[0], self.cells, self.size
        o = out.view(b, 5, 5, cells, cells)  # anchor, field, row, col
        cx = (self.col + torch.sigmoid(o[:, :, 0])) / cells * size
        cy = (self.row + torch.sigmoid(o[:, :, 1])) / cells * size
        w = torch.exp(o[:, :, 2]) * self.anchor_w / cells * size
        h = torch.exp(o[:, :, 3]) * self.anchor_h / cells * size
        score = torch.sigmoid(o[:, :, 4])
        sx, sy = self.scale
        boxes = torch.stack([(cx - w / 2) / sx, (cy - h / 2) / sy, (cx + w / 2) / sx, (cy + h / 2) / sy, score], -1)
        return boxes.permute(0, 2, 3, 1, 4).reshape(b, cells * cells * 5, 5)  # vidpipe's order: cell, then anchor


def iou(a, b):
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def nms(cands, score_threshold=0.4, iou_threshold=0.4, keep_at_most=32):
    """On the host, as reference::decode_faces does it: best first, stable among equals."""
    kept = []
    for c in sorted((c for c in cands.tolist() if c[4] > score_threshold), key=lambda c: -c[4]):
        if all(iou(c, k) <= iou_threshold for k in kept):
            kept.append(c)
    return kept[:keep_at_most]


def frame_shape(clip):
    """Width, height and sample aspect ratio of the clip's video."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=width,height,sample_aspect_ratio", "-of", "json", clip],
                           capture_output=True, check=True, text=True).stdout
    stream = json.loads(probe)["streams"][0]
    num, _, den = stream.get("sample_aspect_ratio", "1:1").partition(":")
    sar = int(num) / int(den) if num.isdigit() and den.isdigit() and int(num) > 0 and int(den) > 0 else 1.0
    return stream["width"], stream["height"], sar


def read_frames(clip, width, height, count):
    """The clip's first `count` frames as yuv420p bytes, decoded by ffmpeg."""
    raw = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", clip, "-frames:v", str(count), "-f", "rawvideo",
                          "-pix_fmt", "yuv420p", "-"], capture_output=True, check=True).stdout
    frame_bytes = width * height * 3 // 2
    return np.frombuffer(raw, np.uint8).reshape(-1, frame_bytes)


def check_against_vidpipe(net, pre, frames, detections_path, device):
    """Same count on every frame, IoU > 0.9 for every face; returns what was compared."""
    with open(detections_path) as f:
        theirs = [json.loads(line)["faces"] for line in f]
    faces, worst = 0, 1.0
    candidates = Candidates(pre, device)
    with torch.no_grad():
        for i, want in enumerate(theirs[:len(frames)]):
            out = net(pre(torch.from_numpy(frames[i:i + 1].copy()).to(device)))
            got = nms(candidates(out)[0].cpu())
            if len(got) != len(want):
                sys.exit(f"peer check: frame {i}: PyTorch found {len(got)} faces, vidpipe {len(want)}: {got} / {want}")
            for box in want:
                best = max(iou(box, g) for g in got)
                worst = min(worst, best)
                if best <= 0.9:
                    sys.exit(f"peer check: frame {i}: vidpipe's face {box} has IoU {best:.3f} with PyTorch's best")
            faces += len(want)
    if faces == 0:
        sys.exit("peer check: vidpipe found no face in the frames compared; nothing was checked")
    return {"frames": min(len(theirs), len(frames)), "faces": faces, "lowest_iou": worst}


def timed(step, iterations, warmup=20, repeats=3):
    """Seconds per call of `step` with the GPU kept busy (no sync between calls); the best of
    `repeats` timings, as the machine is shared."""
    for _ in range(warmup):
        step()
    best = float("inf")
    for _ in range(repeats):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(iterations):
            step()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - start) / iterations)
    return best


def graphed(fn, static_input):
    """fn(static_input) captured in a CUDA graph; returns (replay, static output)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):  # cuDNN picks its algorithms before the capture
            fn(static_input)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_output = fn(static_input)
    return graph.replay, static_output


def inference_variants(net, pre, batches):
    """ms per frame of the detector (network + box decode, as vidpipe's inference stage; the
    NMS runs on the host here) on a batch already on the GPU, each way a user would run it."""
    candidates = Candidates(pre, "cuda")
    detect = lambda x: candidates(net(x))
    compiled = torch.compile(detect) if hasattr(torch, "compile") else None
    results = {}
    for batch in batches:
        x = torch.randn(batch, 3, pre.size, pre.size, device="cuda")
        iterations = max(50, 800 // batch)
        with torch.no_grad():
            results[f"eager b{batch}"] = 1e3 * timed(lambda: detect(x), iterations) / batch
            replay, _ = graphed(detect, x)
            results[f"CUDA graph b{batch}"] = 1e3 * timed(replay, iterations) / batch
            if compiled is not None:
                try:
                    results[f"torch.compile b{batch}"] = 1e3 * timed(lambda: compiled(x), iterations, warmup=5) / batch
                except Exception as e:  # a compiler that cannot run here is a finding, not a crash
                    results[f"torch.compile b{batch}"] = f"failed: {type(e).__name__}: {str(e).splitlines()[0][:120]}"
    return results


def naive_loop(net, pre, frames, count):
    """What one writes first: a pageable frame, .cuda(), torch ops, the frame and boxes .cpu()."""
    host = [torch.from_numpy(f.copy()) for f in frames]
    candidates = Candidates(pre, "cuda")

    def step(i):
        dev = host[i % len(host)].cuda()
        cands = candidates(net(pre(dev[None])))
        dev.cpu()  # the frame comes back, as vidpipe downloads its output
        return nms(cands.cpu()[0])
    with torch.no_grad():
        for i in range(10):
            step(i)
        start = time.perf_counter()
        for i in range(count):
            step(i)
    return count / (time.perf_counter() - start)


def tuned_loop(net, pre, frames, count, streams=2):
    """Pinned frames, non_blocking copies both ways on `streams` streams, each stream's
    preprocess + network + box decode replayed from its own CUDA graph; the host runs NMS
    on a stream's boxes while the other streams work."""
    frame_bytes = frames.shape[1]
    host = torch.from_numpy(frames.copy()).pin_memory()
    candidates = Candidates(pre, "cuda")
    lanes = []
    with torch.no_grad():
        for _ in range(streams):
            stream = torch.cuda.Stream()
            dev_in = torch.empty(1, frame_bytes, dtype=torch.uint8, device="cuda")
            with torch.cuda.stream(stream):
                replay, cands = graphed(lambda x: candidates(net(pre(x))), dev_in)
            lanes.append({"stream": stream, "in": dev_in, "replay": replay, "cands": cands,
                          "frame_out": torch.empty(frame_bytes, dtype=torch.uint8).pin_memory(),
                          "boxes_out": torch.empty(tuple(cands.shape), dtype=torch.float32).pin_memory(),
                          "done": torch.cuda.Event(), "pending": False})
        torch.cuda.synchronize()

        def step(i):
            lane = lanes[i % streams]
            if lane["pending"]:
                lane["done"].synchronize()
                nms(lane["boxes_out"][0])
            with torch.cuda.stream(lane["stream"]):
                lane["in"].copy_(host[i % len(host)][None], non_blocking=True)
                lane["replay"]()
                lane["frame_out"].copy_(lane["in"][0], non_blocking=True)
                lane["boxes_out"].copy_(lane["cands"], non_blocking=True)
                lane["done"].record()
            lane["pending"] = True

        for i in range(10):
            step(i)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for i in range(count):
            step(i)
        for lane in lanes:
            lane["done"].synchronize()
    return count / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="assets/models/tiny_face_detector")
    ap.add_argument("--check-clip", required=True, help="the clip vidpipe's --detections came from")
    ap.add_argument("--detections", required=True, help="vidpipe run --detections on --check-clip")
    ap.add_argument("--check-frames", type=int, default=60)
    ap.add_argument("--loop-clip", help="4K clip whose first --preload frames the loops replay")
    ap.add_argument("--preload", type=int, default=64)
    ap.add_argument("--loop-frames", type=int, default=2000)
    ap.add_argument("--size", type=int, default=416, help="the network's input (gpu.preprocess.width)")
    ap.add_argument("--device", default="cuda", help="cpu: the check alone (no timing)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    torch.backends.cudnn.benchmark = True  # what a user tuning for speed sets first
    net = TinyFaceNet(load_tensors(args.model)).to(args.device).eval()
    width, height, sar = frame_shape(args.check_clip)
    frames = read_frames(args.check_clip, width, height, args.check_frames)
    pre = Preprocess(width, height, sar, args.size, args.device)
    result = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
              "check": check_against_vidpipe(net, pre, frames, args.detections, args.device)}
    print(f"peer check: {result['check']['faces']} faces on {result['check']['frames']} frames match vidpipe's "
          f"(lowest IoU {result['check']['lowest_iou']:.3f})", flush=True)
    if args.device != "cpu":
        result["gpu"] = torch.cuda.get_device_name()
        result["inference_ms"] = inference_variants(net, pre, [1, 8])
        if args.loop_clip:
            width, height, sar = frame_shape(args.loop_clip)
            loop = read_frames(args.loop_clip, width, height, args.preload)
            pre_loop = Preprocess(width, height, sar, args.size, "cuda")
            result["loop_fps"] = {"naive": naive_loop(net, pre_loop, loop, args.loop_frames // 4),
                                  "tuned": tuned_loop(net, pre_loop, loop, args.loop_frames)}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
