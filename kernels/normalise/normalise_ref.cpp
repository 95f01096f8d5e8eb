#include "normalise/normalise_ref.hpp"

namespace vidpipe::reference {

void normalise(const std::uint8_t* src, int width, int height, const Normalisation& norm,
               float* dst) {
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  for (int c = 0; c < 3; ++c)
    for (std::size_t i = 0; i < pixels; ++i)
      dst[norm.nhwc ? i * 3 + c : c * pixels + i] =
          static_cast<float>((double(src[i * 3 + (norm.bgr ? c : 2 - c)]) - norm.mean[c]) * norm.scale[c]);
}

}  // namespace vidpipe::reference
