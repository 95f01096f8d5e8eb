#include "tools/png_writer.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
}

#include <opencv2/imgproc.hpp>

#include <fstream>

#include "memory/av_raii.hpp"
#include "base/errors.hpp"

namespace vidpipe {

void write_png(const std::string& path, const cv::Mat& bgr) {
  const AVCodec* codec = avcodec_find_encoder(AV_CODEC_ID_PNG);
  if (!codec) throw OutputError("cannot write '" + path + "': this FFmpeg has no PNG encoder");
  AvCodecContextPtr ctx(avcodec_alloc_context3(codec));
  if (!ctx) throw std::bad_alloc();
  ctx->width = bgr.cols;
  ctx->height = bgr.rows;
  ctx->pix_fmt = AV_PIX_FMT_RGB24;
  ctx->time_base = {1, 1};
  AV_CHECK_AS(OutputError, avcodec_open2(ctx.get(), codec, nullptr), "'" + path + "': PNG encoder");
  cv::Mat rgb;
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  AvFramePtr frame = make_frame();
  frame->format = AV_PIX_FMT_RGB24;
  frame->width = rgb.cols;
  frame->height = rgb.rows;
  frame->data[0] = rgb.data;
  frame->linesize[0] = static_cast<int>(rgb.step[0]);
  AV_CHECK_AS(OutputError, avcodec_send_frame(ctx.get(), frame.get()), "'" + path + "': PNG encoding");
  AV_CHECK_AS(OutputError, avcodec_send_frame(ctx.get(), nullptr), "'" + path + "': PNG encoding");
  AvPacketPtr packet = make_packet();
  AV_CHECK_AS(OutputError, avcodec_receive_packet(ctx.get(), packet.get()), "'" + path + "': PNG encoding");
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(packet->data), packet->size);
  if (!out) throw OutputError("cannot write '" + path + "'");
}

}  // namespace vidpipe
