// The CPU twin of yuv_to_bgr.cu, written from the standards rather than from the kernel:
// ITU-R BT.601, BT.709 and BT.2020 define the forward transform
//   Y' = Kr R' + (1 - Kr - Kb) G' + Kb B',  Pb = (B' - Y') / (2 (1 - Kb)),  Pr = (R' - Y') / (2 (1 - Kr))
// on full-range values in [0, 1] (Pb, Pr in [-0.5, 0.5]). The twin quantises the codes back
// to those values and multiplies by the forward matrix's inverse (Cramer's rule), so it shares
// no coefficient and no arithmetic with colour_matrix.cpp: a wrong sign there shows as a
// difference between the kernel and this twin.
#include <algorithm>
#include <array>
#include <cmath>

#include "colour/yuv_to_bgr_ref.hpp"

namespace vidpipe::reference {
namespace {

using Matrix = std::array<std::array<double, 3>, 3>;

// Kr and Kb as each standard tables them.
std::array<double, 2> luma_weights(ColourStandard s) {
  switch (s) {
    case ColourStandard::bt601: return {0.299, 0.114};
    case ColourStandard::bt709: return {0.2126, 0.0722};
    case ColourStandard::bt2020: return {0.2627, 0.0593};
  }
  return {0.2126, 0.0722};
}

// Rows: Y', Pb, Pr as functions of (R', G', B').
Matrix forward_matrix(ColourStandard s) {
  const auto [kr, kb] = luma_weights(s);
  const double kg = 1.0 - kr - kb;
  return {{{kr, kg, kb},
           {-kr / (2 * (1 - kb)), -kg / (2 * (1 - kb)), (1 - kb) / (2 * (1 - kb))},
           {(1 - kr) / (2 * (1 - kr)), -kg / (2 * (1 - kr)), -kb / (2 * (1 - kr))}}};
}

double det(const Matrix& m) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

// The inverse of the forward matrix by Cramer's rule: column c of the inverse solves
// forward * x = e_c, i.e. the determinant with column c replaced, over the determinant.
Matrix inverse(const Matrix& forward) {
  const double d = det(forward);
  Matrix inv{};
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) {
      Matrix m = forward;
      for (int k = 0; k < 3; ++k) m[k][row] = k == col ? 1.0 : 0.0;
      inv[row][col] = det(m) / d;
    }
  return inv;
}

std::uint8_t to_code(double v) {
  return static_cast<std::uint8_t>(std::nearbyint(std::clamp(v * 255.0, 0.0, 255.0)));
}

}  // namespace

void yuv_to_bgr(const std::uint8_t* frame, const YuvLayout& layout, ColourStandard standard, ColourRange range,
                std::uint8_t* bgr) {
  const Matrix to_rgb = inverse(forward_matrix(standard));
  // Limited range puts black at 16 and spans 219 luma and 224 chroma codes; full range 255.
  const bool limited = range == ColourRange::limited;
  const double luma_black = limited ? 16.0 : 0.0, luma_span = limited ? 219.0 : 255.0;
  const double chroma_span = limited ? 224.0 : 255.0;
  for (int y = 0; y < layout.height; ++y) {
    const std::size_t chroma_row = static_cast<std::size_t>(y / 2);
    for (int x = 0; x < layout.width; ++x) {
      const double luma = frame[layout.offset[0] + static_cast<std::size_t>(y) * layout.pitch[0] + x];
      const std::size_t uv = layout.nv12 ? layout.offset[1] + chroma_row * layout.pitch[1] + (x / 2) * 2 : 0;
      const double cb = layout.nv12 ? frame[uv] : frame[layout.offset[1] + chroma_row * layout.pitch[1] + x / 2];
      const double cr = layout.nv12 ? frame[uv + 1] : frame[layout.offset[2] + chroma_row * layout.pitch[2] + x / 2];
      const std::array<double, 3> ypbpr = {(luma - luma_black) / luma_span, (cb - 128.0) / chroma_span,
                                           (cr - 128.0) / chroma_span};
      std::array<double, 3> rgb{};
      for (int k = 0; k < 3; ++k) rgb[k] = to_rgb[k][0] * ypbpr[0] + to_rgb[k][1] * ypbpr[1] + to_rgb[k][2] * ypbpr[2];
      std::uint8_t* out = bgr + (static_cast<std::size_t>(y) * layout.width + x) * 3;
      out[0] = to_code(rgb[2]);
      out[1] = to_code(rgb[1]);
      out[2] = to_code(rgb[0]);
    }
  }
}

}  // namespace vidpipe::reference
