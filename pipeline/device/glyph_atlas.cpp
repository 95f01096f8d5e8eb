#include "device/glyph_atlas.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <string>

namespace vidpipe {

GlyphAtlas make_glyph_atlas() {
  constexpr int font = cv::FONT_HERSHEY_SIMPLEX;
  constexpr double font_scale = 0.5;
  constexpr int thickness = 1;
  auto glyph_text = [](int g) { return std::string(1, static_cast<char>(GlyphAtlasView::first + g)); };
  // A glyph's advance is the width OpenCV gives a run of 16 of it, less the stroke thickness
  // that getTextSize adds once per string, in sixteenths of a pixel: set one after another
  // at their advances (rounded where each glyph starts), glyphs land where putText puts
  // them in a string, without the drift that whole-pixel advances gather.
  std::vector<std::uint8_t> advance(GlyphAtlasView::count);
  int baseline = 0;
  const cv::Size box = cv::getTextSize("Mg", font, font_scale, thickness, &baseline);
  GlyphAtlas a;
  for (int g = 0; g < GlyphAtlasView::count; ++g) {
    int unused = 0;
    std::string run;
    for (int k = 0; k < GlyphAtlasView::advance_units; ++k) run += glyph_text(g);
    const int sixteenths = cv::getTextSize(run, font, font_scale, thickness, &unused).width - thickness;
    advance[g] = static_cast<std::uint8_t>(std::clamp(sixteenths, 0, 255));
    // Room for the stroke and the anti-aliasing past the advance.
    a.glyph_w = std::max(a.glyph_w, sixteenths / GlyphAtlasView::advance_units + 3);
  }
  a.glyph_h = box.height + baseline + 2;
  const std::size_t cells = a.cell_bytes();
  a.pixels.assign(cells + advance.size(), 0);
  for (int g = 0; g < GlyphAtlasView::count; ++g) {
    cv::Mat cell(a.glyph_h, a.glyph_w, CV_8UC1, a.pixels.data() + static_cast<std::size_t>(g) * a.glyph_w * a.glyph_h);
    cv::putText(cell, glyph_text(g), cv::Point(0, box.height + 1), font, font_scale, cv::Scalar(255), thickness,
                cv::LINE_AA);
  }
  std::copy(advance.begin(), advance.end(), a.pixels.begin() + static_cast<std::ptrdiff_t>(cells));
  return a;
}

}  // namespace vidpipe
