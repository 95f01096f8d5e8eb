#!/usr/bin/env python3
"""`vidpipe serve` across a restart, in shards, and what a plain run says to control calls.

- an input added over HTTP is kept in control.state_file (mode 0600); a service killed
  with SIGKILL (a pod killed mid-run) and started again resumes it under the same id;
- its removal is kept too: the next start does not bring it back;
- control.shard k/N takes the configured inputs whose index mod N is k, under their index;
- with no token configured, mutating calls are refused (403) and say why;
- a plain `run` with metrics.listen answers POST /inputs with 405 and how to serve.

Usage: serve_restart_test.py VIDPIPE_BINARY"""
import os
import re
import signal
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from service_support import Service, check, finish, make_clip, scratch  # noqa: E402

vidpipe = sys.argv[1]
work = scratch("vidpipe-serve-restart-")
clip = make_clip(work)
state = os.path.join(work, "state.json")
settings = ["--set", "sink.kind=null", "--set", f"control.state_file={state}"]

# Added, killed, resumed.
first = Service(vidpipe, work, *settings, token="tok")
status, added = first.call("POST", "/inputs", {"uri": clip, "id": "cam-7"})
check(status == 201, f"add: {status} {added}")
check(os.path.exists(state) and stat.S_IMODE(os.stat(state).st_mode) & 0o077 == 0, "the state file is the owner's alone")
first.stop(signal.SIGKILL)
second = Service(vidpipe, work, *settings, token="tok")
check(second.wait_for(lambda: (second.inputs().get("cam-7", {}).get("frames_decoded") or 0) > 0, 10),
      f"restarted: cam-7 resumed and delivering: {second.inputs()}")
status, _ = second.call("DELETE", "/inputs/cam-7")
check(status == 200, f"remove: {status}")
second.stop()
third = Service(vidpipe, work, *settings, token="tok")
time.sleep(0.5)
check(third.inputs() == {}, f"a removed input does not come back: {third.inputs()}")
# No token configured: refused, saying why.
status, body = third.call("POST", "/inputs", {"uri": clip}, token=None)
check(status == 401, f"no token sent: 401, got {status}")
third.stop()
no_token = Service(vidpipe, work, "--set", "sink.kind=null")
status, body = no_token.call("POST", "/inputs", {"uri": clip}, token="anything")
check(status == 403 and "control.token_file" in body["error"], f"no token configured: 403 naming the key, got {status} {body}")
no_token.stop()

# Shards: 1 of 3 takes inputs 1 and 4 of five.
clips = [make_clip(work, f"in{i}.mp4", frames=30) for i in range(5)]
shard = Service(vidpipe, work, "--set", "sink.kind=null", "--set", "control.shard=1/3",
                "--set", "inputs=[" + ", ".join(clips) + "]")
check(shard.wait_for(lambda: set(shard.inputs()) == {"1", "4"}, 10), f"shard 1/3 of five: ids 1 and 4, got {list(shard.inputs())}")
check(shard.inputs().get("4", {}).get("uri") == clips[4], "input 4 is the fifth configured")
shard.stop()

# A plain run says it does not take inputs.
run = subprocess.Popen([vidpipe, "run", "--input", clip, "--set", "input.realtime=true", "--set", "input.loop=true",
                        "--set", "sink.kind=null", "--set", "gpu.inference=false", "--set", "metrics.listen=127.0.0.1:0",
                        "--report", ""], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
port = None
for line in run.stderr:
    m = re.search(r"serving http://127\.0\.0\.1:(\d+)/metrics", line)
    if m:
        port = int(m.group(1))
        break
request = urllib.request.Request(f"http://127.0.0.1:{port}/inputs", method="POST", data=b'{"uri": "x.mp4"}')
try:
    urllib.request.urlopen(request, timeout=10)
    status, text = 200, ""
except urllib.error.HTTPError as e:
    status, text = e.code, e.read().decode()
check(status == 405 and "serve" in text, f"a plain run: 405 saying how to serve, got {status} {text}")
run.send_signal(signal.SIGINT)
run.communicate(timeout=30)
finish()
