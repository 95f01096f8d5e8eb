#!/usr/bin/env python3
"""Draws vidpipe's charts with matplotlib, from the JSON the commands write.

    charts.py bench     bench.json      out.png
    charts.py copybench copybench.json  out.png
    charts.py trace     window.json     out.png   (the window trace-png cut from a trace)
    charts.py density   density.json    out.png   (bench --density)

vidpipe runs this when it finds a Python with matplotlib; a chart library lays out ticks,
units, legends and labels that never overlap, which hand-drawn OpenCV charts did not.
Exit codes: 0 written, 3 matplotlib missing (vidpipe says so and keeps the JSON), 1 other.
"""
import json
import math
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")  # no display: the GPU machine and CI have none
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
except ImportError:
    sys.exit(3)

DPI = 110
# One colour per thing drawn, the same in every chart (matplotlib's default cycle).
PALETTE = plt.rcParams["axes.prop_cycle"].by_key()["color"]
# Each span kind of a trace keeps its colour in every window and every run, so two charts
# compare at a glance; listed in the frame's order through the pipeline.
SPAN_COLOURS = {"decode": PALETTE[0], "H2D": PALETTE[1], "preprocess": PALETTE[2], "inference": PALETTE[3],
                "overlay": PALETTE[4], "D2H": PALETTE[5], "sink": PALETTE[6], "copy wait": PALETTE[7],
                "compute wait": PALETTE[8]}
OTHER_SPAN_COLOUR = PALETTE[9]


def size_label(n):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} B"


def ladder_title(name, device):
    # With no GPU the stage is the CPU twins: the chart must not say "GPU" (as bench_table).
    stage = "compute stage on the CPU" if device == "cpu" else "GPU stage"
    return f"whole pipeline (decode, {stage}, sink)" if name == "decoded" else f"{stage} alone ({name} frames)"


def bench_rows_label(row):
    # The rung says what changed; the mode says what really ran (a fallback shows here).
    return f"{row['rung']}\n{row['mode']}"


def draw_ladder(fps_axis, share_axis, ladder, busy_label, device):
    rows = ladder["rows"]
    labels = [bench_rows_label(r) for r in rows]
    ys = list(range(len(rows)))[::-1]  # the first rung on top
    ok = [r for r in rows if r.get("status") == "ok"]
    top = max([r["fps"] for r in ok] + [r.get("predicted_fps", 0) for r in ok] + [1.0])
    for y, r in zip(ys, rows):
        if r.get("status") != "ok":
            fps_axis.text(0, y, "  failed: " + r.get("error", "")[:60], va="center", color="firebrick", fontsize=8)
            continue
        fps_axis.barh(y, r["fps"], color=PALETTE[0], height=0.6)
        predicted = r.get("predicted_fps", 0)
        if predicted > 0:
            fps_axis.plot(predicted, y, marker="D", markerfacecolor="none", color="black", markersize=7)
        label = f"{r['fps']:.1f} ({r['speedup']:.2f}x)"
        if r["fps"] >= 0.3 * top and not (0 < predicted < 0.3 * top):
            # On its bar, from the bar's start: the prediction's marker sits near the bar's end.
            fps_axis.text(top * 0.01, y, label, va="center", ha="left", fontsize=8, color="white", fontweight="bold")
        else:
            # A short bar: right of it and of the prediction's marker, so neither covers it.
            fps_axis.text(max(r["fps"], predicted) + top * 0.025, y, label, va="center", fontsize=8)
        share_axis.barh(y + 0.16, 100 * r["copy_wait_share"], height=0.3, color=PALETTE[3])
        share_axis.barh(y - 0.16, 100 * r["gpu_busy_share"], height=0.3, color=PALETTE[2])
        share_axis.text(101, y, r.get("bottleneck", ""), va="center", fontsize=8)
    fps_axis.set_yticks(ys, labels, fontsize=8)
    fps_axis.set_xlim(0, top * 1.35)  # room for the value labels right of the longest bar
    fps_axis.set_xlabel("frames per second (higher is better)")
    fps_axis.set_title(ladder_title(ladder["name"], device), loc="left", fontsize=10)
    fps_axis.grid(axis="x", alpha=0.3)
    share_axis.set_yticks(ys, [""] * len(ys))
    share_axis.set_xlim(0, 100)
    share_axis.set_xlabel(f"% of wall time: copy-wait, {busy_label} (bound-by stage on the right)")
    share_axis.grid(axis="x", alpha=0.3)


def bench_chart(data, png):
    ladders = data.get("ladders") or [{"name": "decoded", "rows": data["rows"]}]
    heights = [max(2.0, 0.55 * len(l["rows"]) + 1.2) for l in ladders]
    fig, axes = plt.subplots(len(ladders), 2, figsize=(13, sum(heights) + 1.2), squeeze=False,
                             gridspec_kw={"height_ratios": heights, "width_ratios": [3, 2]})
    # On the CPU path the "GPU" stage is the CPU twins: say what the share measures.
    busy_label = "CPU busy" if data.get("device") == "cpu" else "GPU busy"
    for (fps_axis, share_axis), ladder in zip(axes, ladders):
        draw_ladder(fps_axis, share_axis, ladder, busy_label, data.get("device"))
    legend = [Patch(color=PALETTE[0], label="measured fps (speed-up over naive)"),
              plt.Line2D([], [], marker="D", markerfacecolor="none", color="black", linestyle="", label="predicted fps"),
              Patch(color=PALETTE[3], label="copy-wait share"), Patch(color=PALETTE[2], label=f"{busy_label} share")]
    fig.legend(handles=legend, loc="lower center", ncol=4, fontsize=9, frameon=False)
    fig.suptitle(f"vidpipe bench on {data.get('device') or 'this machine'}: {data.get('input', '')}", fontsize=12)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    fig.savefig(png, dpi=DPI, format="png")


def copybench_chart(data, png):
    fig, axis = plt.subplots(figsize=(11, 6.5))
    sizes = sorted({r["bytes"] for r in data["rows"]})
    series = sorted({(r["memory"], r["direction"]) for r in data["rows"]})
    for i, (memory, direction) in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        mine = [r for r in data["rows"] if r["memory"] == memory and r["direction"] == direction]
        sync = sorted((r["bytes"], r["GB_per_s"]) for r in mine if r["method"] == "sync")
        best = {}
        for r in mine:
            if r["method"] != "sync":
                best[r["bytes"]] = max(best.get(r["bytes"], 0), r["GB_per_s"])
        if sync:
            axis.plot(*zip(*sync), color=colour, marker="o", label=f"{memory} {direction}: one copy at a time")
        if best:
            axis.plot(*zip(*sorted(best.items())), color=colour, marker="s", linestyle="--",
                      label=f"{memory} {direction}: best of streams / chunked")
    axis.set_xscale("log", base=2)
    axis.set_xticks(sizes, [size_label(s) for s in sizes], rotation=30, ha="right")
    axis.minorticks_off()
    axis.set_xlabel("bytes per copy (the sizes measured; KiB = 1,024 bytes)")
    axis.set_ylabel("GB/s (10^9 bytes per second)")
    axis.set_ylim(bottom=0)
    axis.grid(alpha=0.3)
    # Below the axes, clear of the curves wherever they run.
    axis.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    engines = data.get("copy_engines", 0)
    axis.set_title(f"copybench on {data.get('device', '')}" + (f": {engines} copy engines" if engines else ""))
    fig.tight_layout()
    fig.savefig(png, dpi=DPI, format="png")


def trace_chart(data, png):
    tracks = data["tracks"]
    present = {span[2] for t in tracks for span in t["spans"]}
    names = [n for n in SPAN_COLOURS if n in present] + sorted(present - SPAN_COLOURS.keys())
    legend_rows = max(1, math.ceil(len(names) / 8))
    height = 1.3 + 0.38 * len(tracks) + 0.3 * legend_rows
    fig, axis = plt.subplots(figsize=(14, height))
    colour = {n: SPAN_COLOURS.get(n, OTHER_SPAN_COLOUR) for n in names}
    for row, track in enumerate(tracks):
        y = len(tracks) - 1 - row
        by_name = {}
        for start, duration, name in track["spans"]:
            # A span shorter than a pixel still shows as one.
            by_name.setdefault(name, []).append((start, max(duration, data["window_ms"] / 1500)))
        for name, spans in by_name.items():
            axis.broken_barh(spans, (y - 0.35, 0.7), color=colour[name])
    axis.set_yticks(range(len(tracks)), [t["name"] for t in reversed(tracks)], fontsize=8)
    axis.set_xlim(0, data["window_ms"])
    axis.set_ylim(-0.6, len(tracks) - 0.4)
    axis.set_xlabel(f"ms from the window's start ({data['start_s']:.3f} s after the trace's first span)")
    axis.grid(axis="x", alpha=0.3)
    axis.set_title(f"{data.get('title', 'vidpipe')}: {data['window_ms']:g} ms", loc="left")
    fig.legend(handles=[Patch(color=colour[n], label=n) for n in names], loc="lower center", ncol=8, fontsize=8,
               frameon=False)
    fig.tight_layout(rect=(0, 0.3 * legend_rows / height, 1, 1))
    fig.savefig(png, dpi=DPI, format="png")


def density_chart(data, png):
    steps = [s for s in data["steps"] if s.get("error") is None]
    fig, (rate_axis, latency_axis) = plt.subplots(1, 2, figsize=(13, 5.8))
    inputs = [s["inputs"] for s in steps]
    rate_axis.plot(inputs, [s["per_input_fps"] * s["inputs"] for s in steps], marker="o", color=PALETTE[0],
                   label="live: frames/s out, all inputs")
    rate_axis.plot(inputs, [s["source_fps"] * s["inputs"] for s in steps], linestyle=":", color="black",
                   label="real time: inputs x the clip's rate")
    rate_axis.plot(inputs, [s["decoders_alone_fps"] for s in steps], marker="s", color=PALETTE[1],
                   label="decoders alone, as fast as they go")
    rate_axis.plot(inputs, [s["flat_out_fps"] for s in steps], marker="^", color=PALETTE[2],
                   label="whole pipeline, as fast as it goes")
    rate_axis.set_ylabel("frames/s, all inputs together (log scale)")
    rate_axis.set_yscale("log")  # the decoders' ceiling can be 100x what real time asks
    latency_axis.plot(inputs, [s["latency_p99_ms"] for s in steps], marker="o", color=PALETTE[3],
                      label="live: p99 latency, decoded to out")
    latency_axis.axhline(data["latency_limit_ms"], color="black", linestyle=":",
                         label=f"limit ({data['latency_limit_ms']:g} ms)")
    for s in steps:
        if not s["held"]:
            latency_axis.annotate(f"not held: {s['frames_dropped_measured']} dropped", (s["inputs"], s["latency_p99_ms"]),
                                  textcoords="offset points", xytext=(-10, 10), ha="right", fontsize=8)
    latency_axis.set_ylabel("ms")
    latency_axis.set_ylim(0, max([data["latency_limit_ms"]] + [s["latency_p99_ms"] for s in steps]) * 1.15)
    for axis in (rate_axis, latency_axis):
        axis.set_xscale("log", base=2)
        axis.set_xticks(inputs, [str(n) for n in inputs])
        axis.minorticks_off()
        axis.set_xlabel("live inputs")
        axis.grid(alpha=0.3)
        # Below the axes: the lines can run anywhere inside them.
        axis.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    fig.suptitle(f"vidpipe bench --density on {data.get('device', '')} ({data.get('decoder', '')} decoder): "
                 f"{data.get('held_inputs', 0)} inputs held in real time", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(png, dpi=DPI, format="png")


CHARTS = {"bench": bench_chart, "copybench": copybench_chart, "trace": trace_chart, "density": density_chart}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in CHARTS:
        print("usage: charts.py bench|copybench|trace|density IN.json OUT.png", file=sys.stderr)
        return 1
    kind, source, png = sys.argv[1:]
    with open(source) as f:
        data = json.load(f)
    # Whole or not at all, as vidpipe's other outputs: drawn under a temporary name and
    # renamed; a special file (a FIFO, /dev/null) is written in place, never replaced.
    special = os.path.exists(png) and not os.path.isfile(png) and not os.path.isdir(png)
    temp = png if special else f"{png}.{os.getpid()}.part"
    try:
        CHARTS[kind](data, temp)
        if not special:
            os.replace(temp, png)
    finally:
        if not special and os.path.exists(temp):
            os.remove(temp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
