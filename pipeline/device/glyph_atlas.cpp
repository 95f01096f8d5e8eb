#include "device/glyph_atlas.hpp"

#include <opencv2/imgproc.hpp>

namespace vidpipe {

GlyphAtlas make_glyph_atlas() {
  constexpr int font = cv::FONT_HERSHEY_SIMPLEX;
  constexpr double font_scale = 0.5;
  constexpr int thickness = 1;
  int baseline = 0;
  const cv::Size box = cv::getTextSize("Mg", font, font_scale, thickness, &baseline);
  GlyphAtlas a;
  a.glyph_w = box.width / 2 + 1;
  a.glyph_h = box.height + baseline + 2;
  a.pixels.assign(static_cast<std::size_t>(GlyphAtlasView::count) * a.glyph_w * a.glyph_h, 0);
  for (int g = 0; g < GlyphAtlasView::count; ++g) {
    cv::Mat cell(a.glyph_h, a.glyph_w, CV_8UC1, a.pixels.data() + static_cast<std::size_t>(g) * a.glyph_w * a.glyph_h);
    const std::string text(1, static_cast<char>(GlyphAtlasView::first + g));
    cv::putText(cell, text, cv::Point(0, box.height + 1), font, font_scale, cv::Scalar(255), thickness, cv::LINE_AA);
  }
  return a;
}

}  // namespace vidpipe
