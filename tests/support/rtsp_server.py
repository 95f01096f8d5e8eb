#!/usr/bin/python3
"""A small RTSP server for the live tests: serves one H.264 MP4 as RTP/H.264 at
rtsp://127.0.0.1:PORT/live, in real time, as an IP camera would (GStreamer's
gst-rtsp-server; FFmpeg can be an RTSP client but not a server).

usage: rtsp_server.py CLIP.mp4 PORT
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def main() -> int:
    clip, port = sys.argv[1], sys.argv[2]
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    factory = GstRtspServer.RTSPMediaFactory()
    # qtdemux gives AVC access units, which rtph264pay sends as they are.
    factory.set_launch(f'( filesrc location="{clip}" ! qtdemux ! queue ! rtph264pay name=pay0 pt=96 config-interval=1 )')
    factory.set_shared(True)
    server.get_mount_points().add_factory("/live", factory)
    if server.attach(None) == 0:
        print(f"rtsp_server: cannot listen on 127.0.0.1:{port}", file=sys.stderr)
        return 1
    print(f"rtsp_server: rtsp://127.0.0.1:{port}/live", flush=True)
    GLib.MainLoop().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
