#include "source/input_config.hpp"

#include <limits>

#include "config/keys.hpp"

namespace vidpipe {

void declare_keys(Keys<InputConfig>& k) {
  k.text("uri", &InputConfig::uri, "file, still image, `/dev/videoN`, `udp://`, `tcp://`, `rtsp://`",
         "what to read. A file must exist (checked before anything starts). `/dev/videoN` is a V4L2 "
         "camera (see `input.camera.*`); `udp://host:port` listens for MPEG-TS, `tcp://host:port` "
         "connects to a sender (`?listen=1`: waits for one), `rtsp://` pulls RTP H.264. Network inputs "
         "and cameras are live: see `input.drop`.");
  k.choice("drop", &InputConfig::drop, {{"oldest", DropPolicy::oldest}, {"newest", DropPolicy::newest}, {"none", DropPolicy::none}},
           "live inputs (network, camera, or `input.realtime` files) only: when the pipeline falls behind "
           "and `input.queue_frames` frames are waiting, drop the oldest waiting frame (`oldest`: lowest "
           "latency), the new one (`newest`), or wait (`none`: nothing dropped, latency grows as the "
           "sender's data queues up). Drops are counted per input in the report and on the live line.");
  k.integer("queue_frames", &InputConfig::queue_frames, 0, 256,
            "frames of one input that may wait between its reader and the GPU stage (each input has a queue "
            "of its own); 0: twice the batch size shared out over the inputs, at least 2 each.");
  k.integer("timeout_ms", &InputConfig::timeout_ms, 10, 600000,
            "live inputs: no data for this long means the source is lost; a named pipe (FIFO) given as the "
            "input: how long to wait for its writer's data, at the start and between reads.");
  Keys<ReconnectOptions> reconnect = k.section("reconnect", &InputConfig::reconnect);
  reconnect.integer("attempts", &ReconnectOptions::attempts, 0, 1000,
                    "live network inputs: how many times to reopen a lost source (or one not yet there at start) "
                    "before the run ends with the error (exit code 3, output finalised).");
  reconnect.integer("backoff_ms", &ReconnectOptions::backoff_ms, 1, 60000,
                    "wait before the first reopen; doubles each attempt, at most 8 s.");
  Keys<CameraOptions> camera = k.section("camera", &InputConfig::camera);
  camera.choice("format", &CameraOptions::format,
                {{"auto", CameraFormat::automatic}, {"mjpeg", CameraFormat::mjpeg}, {"yuyv", CameraFormat::yuyv}},
                "V4L2 capture format; `auto`: the camera's default.");
  camera.integer("width", &CameraOptions::width, 0, 16384,
                 "capture width (with `input.camera.height`); 0: the camera's default.");
  camera.integer("height", &CameraOptions::height, 0, 16384, "capture height.");
  camera.integer("fps", &CameraOptions::fps, 0, 1000, "capture frame rate; 0: the camera's default.");
  k.choice("rtsp_transport", &InputConfig::rtsp_transport,
           {{"tcp", RtspTransport::tcp}, {"udp", RtspTransport::udp}, {"auto", RtspTransport::automatic}},
           "how an `rtsp://` input carries RTP: interleaved in the RTSP connection (`tcp`: no loss, passes "
           "NAT and firewalls), on UDP ports (`udp`: lower latency on a clean LAN, lost packets show as "
           "decode errors) or FFmpeg's choice (`auto`: UDP, then TCP).");
  k.boolean("loop", &InputConfig::loop, "restart the file at its end (for long runs).");
  k.boolean("keep_running", &InputConfig::keep_running,
            "serve, as `vidpipe serve` does: start with the configured inputs (none is fine), each as a "
            "pipeline of its own, take more with `POST /inputs` and remove them with `DELETE /inputs/{id}` on "
            "`metrics.listen` (with `control.token_file`'s token), and run until SIGTERM or SIGINT.");
  k.boolean("realtime", &InputConfig::realtime,
            "pace file frames at the stream's frame rate, as a camera would; such a file is then live for "
            "`input.drop`.");
  k.integer("preload", &InputConfig::preload, 0, 100000,
            "decode the first N frames once into host frame buffers of `copy.memory` (pinned or pageable), "
            "then replay them as fast as the pipeline takes them, as a capture card delivering raw frames "
            "would: the GPU side's own ceiling, without the decoder. With `input.loop` the N frames repeat "
            "until `input.max_frames`; without, they play once. Decodes on the CPU (NVDEC frames would hold "
            "its surfaces). 0: off.");
  k.boolean("stagger", &InputConfig::stagger,
            "several looping file inputs: input k of N starts k/N of the way into its file (a seek to the "
            "keyframe before, the frames up to the start decoded and let go; with `input.preload`, its "
            "replay starts k/N of the way through the frames), as cameras switched on at different times "
            "are out of step. Its frame times start where the file's do, as a camera's count from when it "
            "is switched on (an output written from it starts at 0), and go on as a looping input's. Copies of one file started together reach their keyframes together, and "
            "their decoders' costly frames pile up at the same moments. Needs `input.loop`; a file split "
            "over `reader.decoders` starts at its beginning.");
  k.integer("max_frames", &InputConfig::max_frames, 0, std::numeric_limits<std::int64_t>::max(),
            "stop after this many frames written (0: all). As ffmpeg's `-frames:v`: a live input's "
            "dropped frames (`input.drop`) do not count, so each output gets exactly this many.");
}

}  // namespace vidpipe
