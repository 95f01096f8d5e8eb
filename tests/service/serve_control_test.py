#!/usr/bin/env python3
"""`vidpipe serve`: inputs added and removed over HTTP while it runs.

- with no inputs it is live and ready (it waits for them);
- mutating calls without the token, with a wrong one, or with none configured are refused
  (401), and the token never appears in the log;
- bad requests (not JSON, no uri, unknown key, a bad or taken id, a file that does not
  exist, an output onto another input) get 4xx with a reason, and nothing starts;
- an added input delivers frames within a second of its 201, /readyz turns true, /metrics
  carries it by pipeline;
- removing one mid-run finalises its output (as many frames in the file as the service
  says) and leaves the other running;
- 100 add/remove cycles leave threads, open files and memory where they were;
- SIGTERM ends the service with exit 0, every output finalised, and the report written.

Usage: serve_control_test.py VIDPIPE_BINARY"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from service_support import Service, check, finish, frames_in, make_clip, scratch  # noqa: E402

vidpipe = sys.argv[1]
work = scratch("vidpipe-serve-")
clip = make_clip(work)
other = make_clip(work, "other.mp4", size="160x90")
make_clip(work, "out-a.mp4", frames=10)  # left by an earlier run
make_clip(work, "out-z.mp4", frames=10)  # an input that happens to be named like an output
TOKEN = "t0ken-that-must-not-be-logged"

# glibc gives new threads new malloc arenas, and x264's threads of each new output left
# ~30 MiB of fragmentation over 300 cycles that was no leak (flat with two arenas, as the
# image runs it: deploy/Containerfile): with two, a leak of a pool (~1 MiB a cycle) shows.
service = Service(vidpipe, work, "--set", "sink.kind=encode", "--set", "sink.path=out.mp4",
                  "--set", "metrics.report=service.json", token=TOKEN, env={"MALLOC_ARENA_MAX": "2"})

# Alive and ready with no inputs.
check(service.call("GET", "/healthz")[0] == 200, "/healthz answers")
status, ready = service.call("GET", "/readyz")
check(status == 200 and ready["ready"], f"ready with no inputs: {status} {ready}")

# The token.
for token, what in ((None, "no token"), ("wrong", "a wrong token"), (TOKEN + "x", "a longer token")):
    status, body = service.call("POST", "/inputs", {"uri": clip}, token=token)
    check(status == 401, f"POST with {what}: 401, got {status} {body}")
    status, _ = service.call("DELETE", "/inputs/0", token=token)
    check(status == 401, f"DELETE with {what}: 401, got {status}")
check(service.inputs() == {}, "nothing started by refused calls")

# Bad requests.
bad = [(b"{not json", 400, "not JSON"), ({"id": "x"}, 400, "uri"), ({"uri": clip, "speed": 2}, 400, "speed"),
       ({"uri": clip, "id": "../etc"}, 400, "id"), ({"uri": clip, "id": 7}, 400, "id"),
       ({"uri": os.path.join(work, "missing.mp4")}, 422, "missing.mp4")]
for body, expected, named in bad:
    status, answer = service.call("POST", "/inputs", body)
    check(status == expected and named in json.dumps(answer), f"POST {body!r}: {expected} naming {named}, got {status} {answer}")
check(service.inputs() == {}, "nothing started by bad requests")

# Two inputs: each delivers within a second of being added.
status, a = service.call("POST", "/inputs", {"uri": clip, "id": "a"})
added_at = time.monotonic()
check(status == 201 and a["state"] == "running" and a["output"] == "out-a.mp4", f"add a: 201 running, got {status} {a}")
check(service.wait_for(lambda: (service.inputs()["a"]["frames_decoded"] or 0) > 0, 1.0),
      f"input a delivers within 1 s of its 201 ({time.monotonic() - added_at:.2f} s)")
status, b = service.call("POST", "/inputs", {"uri": other})
check(status == 201 and b["id"] == "1", f"add without an id: the next number, got {status} {b}")
status, taken = service.call("POST", "/inputs", {"uri": clip, "id": "a"})
check(status == 409, f"a taken id: 409, got {status} {taken}")
# out-a.mp4 of an earlier run is on disk, and a writes it again: not an input meanwhile.
status, onto = service.call("POST", "/inputs", {"uri": os.path.join(work, "out-a.mp4"), "id": "x"})
check(status == 422 and "out-a.mp4" in json.dumps(onto) and "does not exist" not in json.dumps(onto),
      f"another input's output as an input: 422 naming it, got {status} {onto}")
# And the reverse: an input named out-z.mp4 is running; an input with the id z would write onto it.
status, _ = service.call("POST", "/inputs", {"uri": os.path.join(work, "out-z.mp4"), "id": "w"})
check(status == 201, f"an input that is a file named out-z.mp4: 201, got {status}")
status, onto = service.call("POST", "/inputs", {"uri": clip, "id": "z"})
check(status == 422 and "out-z.mp4" in json.dumps(onto), f"an output onto another input: 422 naming it, got {status} {onto}")
status, _ = service.call("DELETE", "/inputs/w")
check(status == 200, f"remove w: {status}")
check(service.wait_for(lambda: service.call("GET", "/readyz")[0] == 200, 10), "ready once both deliver")
status, metrics = service.call("GET", "/metrics")
check(status == 200 and 'vidpipe_frames_total{pipeline="a"}' in metrics and 'vidpipe_frames_total{pipeline="1"}' in metrics,
      "/metrics carries both pipelines")

# Remove a mid-run: its output is finalised; b goes on.
time.sleep(1.0)
b_before = service.inputs()["1"]["frames_written"]
status, removed = service.call("DELETE", "/inputs/a")
check(status == 200 and removed["state"] == "stopped", f"remove a: 200 stopped, got {status} {removed}")
written = removed.get("frames_written") or 0
check(written > 0 and frames_in(os.path.join(work, "out-a.mp4")) == written,
      f"out-a.mp4 is playable with the {written} frames the service counted "
      f"({frames_in(os.path.join(work, 'out-a.mp4'))} decoded)")
check(not any(name.startswith("out-a.mp4.") for name in os.listdir(work)), "no temporary of out-a.mp4 left")
check(service.wait_for(lambda: service.inputs()["1"]["frames_written"] > b_before + 10, 5), "b goes on after a is removed")
check("a" not in service.inputs(), "a is gone from /inputs")
status, _ = service.call("DELETE", "/inputs/a")
check(status == 404, f"removing it again: 404, got {status}")

# 100 add/remove cycles leave the process as they found it.
def process():
    return service.call("GET", "/report")[1]["process"]

def cycle(n):
    for i in range(n):
        status, added = service.call("POST", "/inputs", {"uri": clip, "id": f"c{i}"})
        if not check(status in (201, 202), f"cycle {i}: add {status} {added}"):
            return
        status, _ = service.call("DELETE", f"/inputs/c{i}")
        if not check(status == 200, f"cycle {i}: remove {status}"):
            return

# Allocators and the endpoint's 64 worker threads settle first (each worker's stack and
# malloc cache are touched the first time it serves: ~12 MiB more after 10 cycles).
cycle(50)
before = process()
cycle(100)
after = process()
print(f"100 add/remove cycles: threads {before['threads']} -> {after['threads']}, open files {before['open_files']} -> "
      f"{after['open_files']}, resident {before['rss_mib']:.1f} -> {after['rss_mib']:.1f} MiB, device "
      f"{before['device_mib']} -> {after['device_mib']} MiB")
check(after["threads"] == before["threads"], f"threads after 100 cycles: {before['threads']} -> {after['threads']}")
check(after["open_files"] == before["open_files"], f"open files after 100 cycles: {before['open_files']} -> {after['open_files']}")
check(after["rss_mib"] - before["rss_mib"] < 16, f"resident memory after 100 cycles: {before['rss_mib']:.0f} -> {after['rss_mib']:.0f} MiB")
if before["device_mib"] is not None:
    check(after["device_mib"] - before["device_mib"] < 64, f"device memory: {before['device_mib']:.0f} -> {after['device_mib']:.0f} MiB")
check(service.inputs().keys() == {"1"}, f"only b left: {list(service.inputs())}")

# SIGTERM: exit 0, b's output finalised, the report written.
code, out = service.stop()
check(code == 0, f"SIGTERM: exit 0, got {code}")
check(frames_in(os.path.join(work, "out-1.mp4")) > 0, "out-1.mp4 finalised and playable")
report = json.load(open(os.path.join(work, "service.json")))
check(report["kind"] == "service" and report["outcome"] == "stopped" and [i["id"] for i in report["inputs"]] == ["1"],
      f"the service's report lists b, stopped: {report['outcome']} {[i['id'] for i in report['inputs']]}")
check(report["inputs"][0]["frames_written"] == frames_in(os.path.join(work, "out-1.mp4")),
      "the report's frames_written is what the file holds")
check("input 1: stopped" in out, f"the summary names each input: {out!r}")
check(TOKEN not in service.log_text() and TOKEN not in json.dumps(report), "the token is never logged nor reported")
finish()
