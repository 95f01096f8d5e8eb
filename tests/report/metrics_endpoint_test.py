#!/usr/bin/env python3
"""metrics.listen, scraped while a run goes on: two inputs paced at their 30 fps, looped.

- /metrics is Prometheus's text format (promtool check metrics passes), has the run's and
  each input's series, and its counters grow between two scrapes a second apart;
- /report is the report so far (finished: false), valid against docs/report.schema.json,
  and agrees with /metrics;
- the report at the end says finished: true and counts every frame;
- a listen value that is not host:port, and a port already taken, are one line naming
  metrics.listen, exit 2, with no output left behind.

Usage: metrics_endpoint_test.py VIDPIPE_BINARY SOURCE_DIR"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import jsonschema

vidpipe, source_dir = sys.argv[1], sys.argv[2]
validator = jsonschema.Draft202012Validator(json.load(open(os.path.join(source_dir, "docs/report.schema.json"))))
work = tempfile.mkdtemp(prefix="vidpipe-listen-")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL", what)


clip = os.path.join(work, "clip.mp4")
subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=30", "-frames:v", "30",
                "-pix_fmt", "yuv420p", clip], check=True)
frames_per_input = 300  # ten seconds at the source's rate: room for the hostile clients and two scrapes on a loaded machine
base = [vidpipe, "run", "--config", os.path.join(source_dir, "config/default.yaml"),
        "--set", f"inputs=[{clip}, {clip}]", "--set", "input.loop=true", "--set", "input.realtime=true",
        "--set", f"input.max_frames={frames_per_input}", "--set", "sink.kind=null", "--set", "gpu.inference=false",
        "--set", "metrics.warmup_frames=10"]


def series(text, name, **labels):
    """The value of one sample line of the exposition, or None."""
    for line in text.splitlines():
        m = re.fullmatch(r"(\w+)(?:\{(.*)\})? (\S+)", line)
        if not m or m.group(1) != name:
            continue
        found = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(m.group(3))
    return None


def scrape(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
        return response.headers.get("Content-Type"), response.read().decode()


def live_run():
    report_path = os.path.join(work, "report.json")
    run = subprocess.Popen([*base, "--set", "metrics.listen=127.0.0.1:0", "--report", report_path],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port = None
    for line in run.stderr:  # the log names the port the system chose
        m = re.search(r"serving http://127\.0\.0\.1:(\d+)/metrics", line)
        if m:
            port = int(m.group(1))
            break
    check(port is not None, "the log names the endpoint's port")
    if port is None:
        run.kill()
        return
    # Past the warm-up: ready, then half a second more. A fixed wait of 1.5 s was too short when
    # the machine's other tests (a bench ladder) held the cores and the first frames came late.
    ready_by = time.monotonic() + 30
    while time.monotonic() < ready_by:
        try:
            if scrape(port, "/readyz")[0]:
                break
        except urllib.error.HTTPError:  # 503 until both inputs deliver
            time.sleep(0.1)
    time.sleep(0.5)
    # Hostile clients beside the scraper: idle connections that send nothing, and one that
    # announces a 300 MB body. Scrapes are still answered, the body is refused unread.
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
    # Slowloris: a request whose headers come a line every half second, for ever.
    dripping = threading.Event()
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(8)]

    def drip():
        for s in slow:
            s.sendall(b"GET /metrics HTTP/1.1\r\n")
        while not dripping.wait(0.5):
            for s in slow:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as big:
        big.sendall(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 300000000\r\n\r\n" + b"x" * 65536)
        try:
            answer = big.recv(200).decode(errors="replace")
        except OSError as e:
            answer = str(e)
        check(" 413 " in answer, f"a 300 MB body is refused with 413 ({answer.splitlines()[:1]})")
    kind, first = scrape(port, "/metrics")
    # Health: alive, ready (both inputs delivered, frames still coming), the inputs listed.
    _, health = scrape(port, "/healthz")
    check(health == "ok\n", f"/healthz answers ok ({health!r})")
    _, ready_text = scrape(port, "/readyz")
    check(json.loads(ready_text) == {"ready": True, "why": ""}, f"/readyz says ready mid-run ({ready_text})")
    _, inputs_text = scrape(port, "/inputs")
    listed = json.loads(inputs_text)
    check([i["id"] for i in listed] == [0, 1] and all(i["uri"] == clip and i["frames_decoded"] > 0 for i in listed),
          f"/inputs lists both inputs with their figures ({inputs_text[:300]})")
    time.sleep(1.0)
    _, second = scrape(port, "/metrics")
    _, live_text = scrape(port, "/report")
    run.stderr.read()
    check(run.wait(timeout=60) == 0, "the run ends with exit 0, idle clients still connected")
    dripping.set()
    dripper.join()
    for connection in idle + slow:
        connection.close()
    check(kind.startswith("text/plain; version=0.0.4"), f"/metrics is the text exposition format ({kind})")
    lint = subprocess.run(["promtool", "check", "metrics"], input=second, capture_output=True, text=True)
    check(lint.returncode == 0, f"promtool check metrics: {lint.stdout}{lint.stderr}")
    before, after = series(first, "vidpipe_frames_total"), series(second, "vidpipe_frames_total")
    check(before is not None and 0 < before < after < 2 * frames_per_input,
          f"frames out grow between scrapes while the run goes on ({before} -> {after})")
    for i in ("0", "1"):
        decoded = series(second, "vidpipe_input_frames_decoded_total", input=i, uri=clip)
        check(decoded is not None and decoded > 0, f"input {i}'s frames decoded are served ({decoded})")
        fps = series(second, "vidpipe_input_frames_per_second", input=i)
        check(fps is not None and 20 < fps < 40, f"input {i} paced at 30 fps reads so ({fps})")
    recent = series(second, "vidpipe_recent_frames_per_second")
    check(recent is not None and 40 < recent < 80, f"the recent rate reads two inputs at 30 fps ({recent})")
    for name in ("vidpipe_copy_wait_ratio", "vidpipe_frames_dropped_total", "vidpipe_input_reconnects_total",
                 "vidpipe_latency_seconds_count", "vidpipe_stage_seconds_sum", "vidpipe_bottleneck"):
        check(series(second, name) is not None, f"{name} is served")
    check(series(second, "vidpipe_stage_seconds", stage="h2d", quantile="0.99") is not None, "per-stage p99 is served")
    live = json.loads(live_text)
    for e in validator.iter_errors(live):
        check(False, f"/report against the schema: {list(e.path)}: {e.message}")
    check(live["finished"] is False, "/report says the run has not finished")
    check(live["frames"] >= after, f"/report, taken after /metrics, has at least its frames ({live['frames']})")
    final = json.load(open(report_path))
    check(final["finished"] is True, "the report at the end says finished")
    check(final["frames"] == 2 * frames_per_input, f"the report at the end counts every frame ({final['frames']})")


def refused(listen, expect, why):
    out = os.path.join(work, "refused.mp4")
    done = subprocess.run([*base, "--set", f"metrics.listen={listen}", "--set", "sink.kind=encode",
                           "--set", f"sink.path={out}", "--report", ""], capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    check(done.returncode == 2, f"{why}: exit 2 (got {done.returncode})")
    check(len(lines) == 1 and "metrics.listen" in lines[0] and expect in lines[0],
          f"{why}: one line naming metrics.listen and '{expect}': {done.stderr.strip()}")
    check(not any(n.startswith("refused") for n in os.listdir(work)), f"{why}: no output left behind")


live_run()
refused("9100", "host:port", "a value without a host")
refused("127.0.0.1:99999", "65535", "a port out of range")
with socket.socket() as taken:
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    refused(f"127.0.0.1:{taken.getsockname()[1]}", "cannot listen on", "a port already taken")
print(f"{len(failures)} failure(s)" if failures else "metrics endpoint: all checks passed")
sys.exit(1 if failures else 0)
