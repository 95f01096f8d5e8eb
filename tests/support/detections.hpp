// Comparing two detection lists box by box, for the GPU-vs-CPU tests.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "common/image_types.hpp"

namespace vidpipe::test {

inline void expect_same_detections(const DetectionList& got, const DetectionList& want, const std::string& what) {
  ASSERT_EQ(got.count, want.count) << what;
  for (int i = 0; i < want.count; ++i) {
    EXPECT_NEAR(got.det[i].score, want.det[i].score, 1e-4) << what << " #" << i;
    EXPECT_NEAR(got.det[i].x0, want.det[i].x0, 0.05) << what << " #" << i;
    EXPECT_NEAR(got.det[i].y1, want.det[i].y1, 0.05) << what << " #" << i;
  }
}

}  // namespace vidpipe::test
