// GPU tests call this first: without a CUDA device they skip with a reason.
#pragma once
#include <gtest/gtest.h>

#include "memory/cuda_raii.hpp"

#define REQUIRE_GPU()                                                                           \
  do {                                                                                          \
    if (::vidpipe::cuda::device_count() == 0)                                                   \
      GTEST_SKIP() << "no CUDA device on this machine: GPU test skipped (run it on the device)"; \
  } while (0)
