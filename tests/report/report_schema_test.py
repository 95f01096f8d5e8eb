#!/usr/bin/env python3
"""Every kind of report `vidpipe run` writes validates against docs/report.schema.json: one
input and several, sync (with its forecast) and async, preloaded, inference off, a run that
ended on an error. The schema forbids keys it does not document, so a key added or renamed
without the schema fails here; a report with an undocumented key is checked to fail too.
bench.json (the ladder and --density) and copybench.json, written and printed with --json,
validate against docs/bench.schema.json and docs/copybench.schema.json the same way.

Usage: report_schema_test.py VIDPIPE_BINARY SOURCE_DIR"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

vidpipe, source_dir = sys.argv[1], sys.argv[2]
schema = json.load(open(os.path.join(source_dir, "docs/report.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
work = tempfile.mkdtemp(prefix="vidpipe-schema-")


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


clip = os.path.join(work, "clip.mp4")
ffmpeg("-f", "lavfi", "-i", "testsrc=size=192x108:rate=25", "-frames:v", "12", "-pix_fmt", "yuv420p", clip)
# Half a file: the decoder runs out mid-stream; the run reports and ends (exit 3) with "error".
broken = os.path.join(work, "broken.mp4")
ffmpeg("-f", "lavfi", "-i", "testsrc=size=192x108:rate=25", "-frames:v", "12", "-pix_fmt", "yuv420p",
       "-movflags", "frag_keyframe", os.path.join(work, "whole.mp4"))
with open(os.path.join(work, "whole.mp4"), "rb") as whole:
    data = whole.read()
with open(broken, "wb") as half:
    half.write(data[:2000])

base = ["run", "--config", os.path.join(source_dir, "config/default.yaml"), "--set", "sink.kind=null"]
runs = {
    "one input, async, detecting": ["--input", clip],
    "sync, with its forecast": ["--input", clip, "--set", "copy.mode=sync", "--set", "copy.memory=pageable"],
    "two inputs, inference off": ["--set", f"inputs=[{clip}, {clip}]", "--set", "gpu.inference=false"],
    "preloaded, encoded": ["--input", clip, "--set", "input.preload=4", "--set", "input.max_frames=10",
                           "--set", "sink.kind=encode", "--set", f"sink.path={work}/out.mp4"],
    "ended on an error": ["--input", broken],
    "did not start": ["--input", os.path.join(work, "no-such-clip.mp4")],
}
failures = 0
for name, args in runs.items():
    report_path = os.path.join(work, "report.json")
    if os.path.exists(report_path):
        os.remove(report_path)
    done = subprocess.run([vidpipe, "-q", *base, *args, "--report", report_path], capture_output=True, text=True)
    if not os.path.exists(report_path):
        print(f"FAIL {name}: no report (exit {done.returncode}): {done.stderr.strip()}")
        failures += 1
        continue
    report = json.load(open(report_path))
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
    for e in errors:
        print(f"FAIL {name}: {'/'.join(map(str, e.path)) or '(top)'}: {e.message[:200]}")
    failures += len(errors)
    if name == "sync, with its forecast" and "prediction" not in report:
        print(f"FAIL {name}: no prediction")
        failures += 1
    if name == "ended on an error" and (done.returncode != 3 or "error" not in report):
        print(f"FAIL {name}: exit {done.returncode}, error in report: {'error' in report}")
        failures += 1
    if name == "did not start" and (done.returncode != 3 or report.get("started") is not False
                                    or "no-such-clip.mp4" not in report.get("error", "")):
        print(f"FAIL {name}: exit {done.returncode}, report {report}")
        failures += 1
    if not errors:
        print(f"ok   {name}")
    if name != "did not start":  # no figures: not the sample the changes below start from
        last_good = report

# The schema must be able to say no: an undocumented key and a renamed one are refused.
for change in ("added", "renamed"):
    bad = copy.deepcopy(last_good)
    if change == "added":
        bad["inputs"][0]["fps_total"] = 1.0
    else:
        bad["h2d_gbps"] = bad.pop("h2d_GB_per_s")
    if validator.is_valid(bad):
        print(f"FAIL the schema took a report with a key {change}")
        failures += 1


def check_file(name, schema_name, args, out_file):
    """Runs a bench or copybench on the CPU, then validates its file and its --json."""
    global failures
    schema = json.load(open(os.path.join(source_dir, "docs", schema_name)))
    jsonschema.Draft202012Validator.check_schema(schema)
    file_validator = jsonschema.Draft202012Validator(schema)
    done = subprocess.run([vidpipe, "-q", *args, "--json"], capture_output=True, text=True)
    if done.returncode != 0 or not os.path.exists(out_file):
        print(f"FAIL {name}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
        failures += 1
        return None
    written, printed = json.load(open(out_file)), json.loads(done.stdout)
    if written != printed:
        print(f"FAIL {name}: --json printed something else than the file holds")
        failures += 1
    errors = list(file_validator.iter_errors(written))
    for e in errors:
        print(f"FAIL {name}: {'/'.join(map(str, e.path)) or '(top)'}: {e.message[:200]}")
    failures += len(errors)
    if not errors:
        print(f"ok   {name}")
    return file_validator, written


# Charts drawn too: their "chart: x.png" line must not land in the JSON on stdout.
bench_base = ["--input", clip, "--set", "device=cpu", "--set", "gpu.inference=false",
              "--set", f"bench.chart={work}/bench.png", "--set", "bench.streams=[2]", "--set", "bench.batch=1"]
ladder = check_file("bench.json (ladder)", "bench.schema.json",
                    ["bench", *bench_base, "--set", f"bench.json={work}/bench.json"], f"{work}/bench.json")
check_file("bench.json (density)", "bench.schema.json",
           ["bench", "--density", *bench_base, "--set", f"bench.json={work}/density.json", "--set",
            "bench.density_max=2", "--set", "bench.density_seconds=0.5"], f"{work}/density.json")
copybench = check_file("copybench.json", "copybench.schema.json",
                       ["copybench", "--cpu", "--sizes", "64K", "2M", "--streams", "1", "2", "--repeats", "1",
                        "--chart", f"{work}/copybench.png", "--out", f"{work}/copybench.json"], f"{work}/copybench.json")
# These schemas say no too: an old unit name and an undocumented key.
for checked, rename in ((ladder, ("ladders", 0, "limits", "link_both_GB_per_s", "link_both_gbps")),
                        (copybench, ("rows", 0, None, "GB_per_s", "gbps"))):
    if checked is None:
        continue
    file_validator, sample = checked
    bad = copy.deepcopy(sample)
    where = bad[rename[0]][rename[1]]
    if rename[2] is not None:
        where = where[rename[2]]
    where[rename[4]] = where.pop(rename[3])
    if file_validator.is_valid(bad):
        print(f"FAIL the schema took {rename[4]} for {rename[3]}")
        failures += 1
sys.exit(1 if failures else 0)
