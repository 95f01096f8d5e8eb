#!/usr/bin/env python3
"""`vidpipe serve` with a live camera that goes away and comes back, and one whose URL holds a
password.

- a UDP MPEG-TS camera added over HTTP makes /readyz true once it delivers;
- when the sender stops, /inputs says it is reconnecting and /readyz turns 503, naming it;
- when the sender comes back, the input reconnects (reconnects >= 1) and /readyz is 200 again;
- an RTSP URL's password is in no answer (/inputs, /report, /metrics, the POST's own) and
  not in the log; removing that input while it still connects is a stop, not an error.

Usage: serve_live_test.py VIDPIPE_BINARY"""
import json
import os
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from service_support import Service, check, finish, scratch  # noqa: E402

vidpipe = sys.argv[1]
work = scratch("vidpipe-serve-live-")


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sender(port):
    return subprocess.Popen(["ffmpeg", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30",
                             "-c:v", "libx264", "-g", "15", "-pix_fmt", "yuv420p", "-f", "mpegts",
                             f"udp://127.0.0.1:{port}?pkt_size=1316"], stdin=subprocess.DEVNULL)


service = Service(vidpipe, work, "--set", "sink.kind=null", "--set", "input.timeout_ms=1000",
                  "--set", "input.reconnect.attempts=100", "--set", "input.reconnect.backoff_ms=200", token="tok")
port = free_udp_port()
camera = sender(port)
try:
    status, added = service.call("POST", "/inputs", {"uri": f"udp://127.0.0.1:{port}", "id": "cam"})
    check(status in (201, 202), f"add the camera: {status} {added}")
    check(service.wait_for(lambda: service.call("GET", "/readyz")[0] == 200, 15),
          f"ready once the camera delivers: {service.call('GET', '/readyz')}")

    camera.terminate()
    camera.wait()
    check(service.wait_for(lambda: service.inputs()["cam"].get("reconnecting") is True, 10),
          f"/inputs says the camera is reconnecting: {service.inputs().get('cam')}")
    status, why = service.call("GET", "/readyz")
    check(status == 503 and "cam" in why["why"] and "reconnecting" in why["why"],
          f"/readyz is 503 naming the reconnecting camera: {status} {why}")

    camera = sender(port)
    check(service.wait_for(lambda: service.call("GET", "/readyz")[0] == 200, 20),
          f"ready again once the camera is back: {service.call('GET', '/readyz')}")
    check((service.inputs()["cam"].get("reconnects") or 0) >= 1, f"the reconnect is counted: {service.inputs()['cam']}")
finally:
    camera.terminate()
    camera.wait()

# A password in the URL shows nowhere.
secret = "pa55-w0rd-in-url"
status, answer = service.call("POST", "/inputs", {"uri": f"rtsp://admin:{secret}@127.0.0.1:9/stream", "id": "door"})
answers = json.dumps(answer) + json.dumps(service.call("GET", "/inputs")[1]) + \
    json.dumps(service.call("GET", "/report")[1]) + service.call("GET", "/metrics")[1]
check(secret not in answers, "the URL's password is in no answer")
status, removed = service.call("DELETE", "/inputs/door")
check(status == 200 and removed["state"] == "stopped" and "error" not in removed,
      f"removing an input while it still connects is a stop, not an error: {status} {removed}")
service.stop()
check(secret not in service.log_text(), "the URL's password is not in the log")
finish()
