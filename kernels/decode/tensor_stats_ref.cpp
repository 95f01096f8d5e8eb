#include "decode/tensor_stats_ref.hpp"

#include "decode/tensor_stats_fold.hpp"

namespace vidpipe::reference {

DetectionList tensor_stats(const float* frame, std::size_t floats) {
  StatsFold fold = empty_fold();
  for (std::size_t i = 0; i < floats; ++i) fold_value(fold, frame[i], static_cast<int>(i));
  DetectionList list;
  list.summary = summary_of(fold);
  return list;
}

}  // namespace vidpipe::reference
