#include "colour/colour_matrix.hpp"

namespace vidpipe {

ColourMatrix make_colour_matrix(ColourStandard standard, ColourRange range) {
  const double kr = standard == ColourStandard::bt709 ? 0.2126 : standard == ColourStandard::bt2020 ? 0.2627 : 0.299;
  const double kb = standard == ColourStandard::bt709 ? 0.0722 : standard == ColourStandard::bt2020 ? 0.0593 : 0.114;
  const double kg = 1.0 - kr - kb;
  // Limited range puts black at 16 and spans 219 (luma) / 224 (chroma) codes.
  const bool limited = range == ColourRange::limited;
  const double y_scale = limited ? 255.0 / 219.0 : 1.0;
  const double c_scale = limited ? 255.0 / 224.0 : 1.0;
  ColourMatrix m;
  m.y_offset = limited ? 16.f : 0.f;
  m.y_scale = static_cast<float>(y_scale);
  m.cr_to_r = static_cast<float>(2.0 * (1.0 - kr) * c_scale);
  m.cb_to_b = static_cast<float>(2.0 * (1.0 - kb) * c_scale);
  m.cb_to_g = static_cast<float>(-2.0 * kb * (1.0 - kb) / kg * c_scale);
  m.cr_to_g = static_cast<float>(-2.0 * kr * (1.0 - kr) / kg * c_scale);
  return m;
}

}  // namespace vidpipe
