// How the raw decoder folds values into a frame's summary, for the kernel and its CPU twin
// alike: partial folds merge in any order to the same min, max, argmax and count; only the
// sum's rounding depends on the order (in double: far below a float's).
#pragma once
#include <cmath>

#include "common/image_types.hpp"

namespace vidpipe {

struct StatsFold {
  float min, max;
  double sum;
  int argmax, finite, nonfinite;
};

VP_HD inline bool finite_value(float v) {
#ifdef __CUDA_ARCH__
  return isfinite(v);
#else
  return std::isfinite(v);
#endif
}

VP_HD inline StatsFold empty_fold() { return {0.f, 0.f, 0.0, -1, 0, 0}; }

// Values come in index order (a thread's stride, the twin's loop): the first of equal maxima stays.
VP_HD inline void fold_value(StatsFold& f, float v, int index) {
  if (!finite_value(v)) {
    ++f.nonfinite;
    return;
  }
  if (f.finite == 0 || v < f.min) f.min = v;
  if (f.finite == 0 || v > f.max) f.max = v, f.argmax = index;
  f.sum += v;
  ++f.finite;
}

VP_HD inline void merge_fold(StatsFold& into, const StatsFold& other) {
  if (other.finite > 0) {
    if (into.finite == 0 || other.min < into.min) into.min = other.min;
    if (into.finite == 0 || other.max > into.max || (other.max == into.max && other.argmax < into.argmax))
      into.max = other.max, into.argmax = other.argmax;
  }
  into.sum += other.sum;
  into.finite += other.finite;
  into.nonfinite += other.nonfinite;
}

VP_HD inline TensorSummary summary_of(const StatsFold& f) {
  const float mean = f.finite > 0 ? static_cast<float>(f.sum / f.finite) : 0.f;
  return {f.min, f.max, mean, f.argmax, f.nonfinite};
}

}  // namespace vidpipe
