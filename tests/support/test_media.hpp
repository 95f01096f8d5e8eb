// Test clips made on the spot with the ffmpeg program (so nothing binary is
// committed), and a decoder that reads a whole file back for comparisons.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "source/video_reader.hpp"

namespace vidpipe::test {

// Directory for this test binary's generated files (created once).
const std::string& scratch_dir();

// Makes (once per process) a clip named `name` with ffmpeg's testsrc2 pattern;
// `codec_args` e.g. "-c:v libx264 -pix_fmt yuv420p". Returns "" when this ffmpeg
// lacks the encoder (the caller skips).
std::string make_clip(const std::string& name, int width, int height, int frames,
                      const std::string& codec_args);

bool ffmpeg_has_encoder(const std::string& encoder);

// Every frame of a video as tight YUV420P planes (Y then U then V).
struct DecodedVideo {
  int width = 0, height = 0;
  std::vector<std::vector<std::uint8_t>> frames;
};
DecodedVideo decode_all(const std::string& path);
// The same, decoded and converted by the ffmpeg program itself (-pix_fmt yuv420p), as the
// independent reference for what vidpipe's reader makes of other formats. `filters`: an
// ffmpeg -vf chain run before the conversion (e.g. a scale to width x height).
DecodedVideo ffmpeg_yuv420p(const std::string& path, int width, int height, const std::string& filters = "");

// Reader options for a test: pageable buffers (no CUDA needed), FFmpeg's threads.
ReaderOptions pageable_reader(const std::string& uri, int threads = 0);

// PSNR of two equal-size 8-bit buffers; 100 dB for identical ones.
double psnr(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b);

int run_command(const std::string& command);

// Each video frame's presentation time in seconds, in display order, as ffprobe reads it.
std::vector<double> frame_times(const std::string& path);

// The first video stream's keyframes: their places in its packet order.
std::vector<int> keyframe_indices(const std::string& path);

// One field of the first video stream as ffprobe prints it (e.g. "pix_fmt", "color_space").
std::string video_field(const std::string& path, const std::string& field);
// The first frame as the ffmpeg program shows it: R'G'B' bytes, tags honoured.
std::vector<std::uint8_t> first_frame_rgb(const std::string& path);
// The whole file, byte for byte ("" where it cannot be read): logs, outputs, inputs to compare.
std::string file_bytes(const std::string& path);

// Each stream of a file as ffprobe sees it.
struct StreamInfo {
  std::string type, codec;  // "video" / "audio", "h264" / "aac"
  double start_s = 0, duration_s = 0;
};
std::vector<StreamInfo> streams_of(const std::string& path);
// The first audio stream decoded to mono 16-bit samples at `rate` Hz.
std::vector<std::int16_t> audio_samples(const std::string& path, int rate);

// Whether a sink's temporary file (<out>.part or <out>.<pid>.part) is left beside `out`.
bool temporary_left(const std::string& out);

// The repository root: $VIDPIPE_SOURCE_DIR when set (tests run from a copied
// checkout on the GPU machine), else where this build came from.
std::string source_dir();

}  // namespace vidpipe::test
