"""What the serving tests share: test clips, a `vidpipe serve` process on a free port, and
HTTP calls that return (status, JSON body) whatever the status."""
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL", what, flush=True)
    return ok


def finish():
    print(f"{len(failures)} failure(s)" if failures else "all passed")
    raise SystemExit(1 if failures else 0)


def make_clip(folder, name="clip.mp4", size="192x108", frames=60):
    path = os.path.join(folder, name)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate=30",
                    "-frames:v", str(frames), "-pix_fmt", "yuv420p", path], check=True)
    return path


def frames_in(path):
    """Frames a player finds in a file: decoded, not the container's claim."""
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                          "stream=nb_read_frames", "-of", "csv=p=0", path], capture_output=True, text=True)
    return int(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip().isdigit() else -1


class Service:
    """`vidpipe serve` in `folder`, its port read off the log."""

    def __init__(self, vidpipe, folder, *settings, token=None, env=None):
        self.folder = folder
        self.log_path = os.path.join(folder, f"serve-{time.monotonic_ns()}.log")
        self.log = open(self.log_path, "w")
        environment = dict(os.environ, **(env or {}))
        args = [vidpipe, "serve", "--set", "metrics.listen=127.0.0.1:0", "--set", "gpu.inference=false",
                "--set", "input.realtime=true", "--set", "input.loop=true", *settings]
        if token is not None:
            token_file = os.path.join(folder, "token")
            with open(token_file, "w") as f:
                f.write(token + "\n")
            args += ["--set", f"control.token_file={token_file}"]
        self.process = subprocess.Popen(args, cwd=folder, stdout=subprocess.PIPE, stderr=self.log, text=True, env=environment)
        self.port = self._port()
        self.token = token

    def _port(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                m = re.search(r"serving http://127\.0\.0\.1:(\d+)/metrics", f.read())
            if m:
                return int(m.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise SystemExit(f"serve did not start:\n{open(self.log_path).read()}")

    def call(self, method, path, body=None, token="default"):
        token = self.token if token == "default" else token
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode()))
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def inputs(self):
        return {entry["id"]: entry for entry in self.call("GET", "/inputs")[1]}

    def wait_for(self, condition, seconds=10):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.05)
        return False

    def stop(self, sig=signal.SIGTERM):
        self.process.send_signal(sig)
        try:
            out, _ = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, _ = self.process.communicate()
        self.log.close()
        return self.process.returncode, out

    def log_text(self):
        with open(self.log_path) as f:
            return f.read()


def scratch(prefix):
    return tempfile.mkdtemp(prefix=prefix)
