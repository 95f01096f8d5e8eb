#!/usr/bin/env python3
"""The third fuzz target: the whole `vidpipe run` path (demux, decode, GPU stage on the CPU
twins, encode, report) on small crafted files: truncations, bit flips, header edits and
spliced chunks of MP4, MKV, TS, AVI, PNG and Y4M seeds.

A black-box harness rather than libFuzzer: the run path spans threads, the encoder and the
file system, and what must hold is about the process (exit code, no sanitizer report, no
hang, no file left half-written), which only running the real binary checks. Each input:
  - exits 0 (what could be decoded was written) or 3 (one input error), within the timeout;
  - prints no AddressSanitizer/UBSan report;
  - leaves no temporary `.part` file, and any output it leaves plays (an input error mid-run
    keeps the frames before it in a finalised file, as documented).
A failing input is kept under fuzz/regressions/run/ and every later run replays it first.

Usage: run_path_fuzz.py VIDPIPE_BIN SEED_DIR SECONDS
"""
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REGRESSIONS = os.path.join(HERE, "regressions", "run")
ROOT = os.path.dirname(HERE)
TIMEOUT_S = 30
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")


def mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["truncate", "flip", "header", "splice", "zero"])
        if kind == "truncate" and len(out) > 16:
            del out[rng.randint(8, len(out) - 1):]
        elif kind == "flip" and out:
            for _ in range(rng.randint(1, 64)):
                out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        elif kind == "header" and out:
            # Sizes, counts and tags live near the start of every container.
            for _ in range(rng.randint(1, 8)):
                out[rng.randrange(min(len(out), 256))] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
        elif kind == "splice" and len(out) > 64:
            start = rng.randrange(len(out) - 32)
            chunk = out[start:start + rng.randint(16, 4096)]
            at = rng.randrange(len(out))
            out[at:at] = chunk
        elif kind == "zero" and len(out) > 64:
            start = rng.randrange(len(out) - 32)
            out[start:start + rng.randint(8, 1024)] = bytes(min(len(out) - start, 1024))
    return bytes(out)


def check(binary: str, path: str, work: str):
    """Runs one input; returns None when every promise held, else what broke."""
    out = os.path.join(work, "out.mp4")
    report = os.path.join(work, "report.json")
    for leftover in os.listdir(work):
        if leftover.startswith("out."):
            os.remove(os.path.join(work, leftover))
    command = [binary, "run", "--config", os.path.join(ROOT, "config", "default.yaml"), "--input", path,
               "--set", "device=cpu", "--set", "gpu.inference=false", "--set", "input.max_frames=12",
               "--set", "sink.threads=1", "--set", "sink.path=" + out, "--report", report]
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "hang (no exit within %d s)" % TIMEOUT_S
    said = done.stdout + done.stderr
    if any(mark in said for mark in SANITIZER_MARKS):
        return "sanitizer report:\n" + said[-3000:]
    if done.returncode not in (0, 3):
        return "exit %d:\n%s" % (done.returncode, said[-2000:])
    if any(name.endswith(".part") for name in os.listdir(work)):
        return "a .part file was left behind (exit %d)" % done.returncode
    if os.path.exists(out) and playable_frames(out) == 0:
        return "exit %d left an output that plays no frame" % done.returncode
    return None


def playable_frames(path: str) -> int:
    """Frames ffprobe decodes from the output: what a user would find in it."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames", "-of", "csv=p=0", path], capture_output=True, text=True)
    try:
        return int(probe.stdout.strip() or 0)
    except ValueError:
        return 0


def main() -> int:
    binary, seed_dir, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    seeds = sorted(os.path.join(seed_dir, f) for f in os.listdir(seed_dir))
    if not seeds:
        print("run-path fuzz: no seeds in", seed_dir)
        return 1
    work = tempfile.mkdtemp(prefix="vidpipe-fuzz-run-")
    failures = 0
    try:
        replay = sorted(os.listdir(REGRESSIONS)) if os.path.isdir(REGRESSIONS) else []
        for name in replay:
            problem = check(binary, os.path.join(REGRESSIONS, name), work)
            if problem:
                failures += 1
                print("run-path fuzz: regression input %s fails again: %s" % (name, problem))
        rng = random.Random(int(os.environ.get("FUZZ_RUN_SEED", time.time_ns())))
        deadline = time.monotonic() + seconds
        runs = 0
        while time.monotonic() < deadline:
            seed = rng.choice(seeds)
            extension = os.path.splitext(seed)[1]
            with open(seed, "rb") as f:
                data = mutate(f.read(), rng)
            candidate = os.path.join(work, "input" + extension)
            with open(candidate, "wb") as f:
                f.write(data)
            problem = check(binary, candidate, work)
            runs += 1
            if problem:
                failures += 1
                os.makedirs(REGRESSIONS, exist_ok=True)
                kept = os.path.join(REGRESSIONS, hashlib.sha1(data).hexdigest()[:16] + extension)
                shutil.copyfile(candidate, kept)
                print("run-path fuzz: %s (input kept as %s)" % (problem, os.path.relpath(kept, ROOT)))
        print("run-path fuzz: %d crafted inputs in %.0f s, %d regression inputs replayed, %d failures"
              % (runs, seconds, len(replay), failures))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
