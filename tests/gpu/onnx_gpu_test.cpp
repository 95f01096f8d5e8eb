// ONNX Runtime's CUDA provider on one of the pipeline's streams (issue 35): fed a tensor in
// device memory through an IoBinding, its outputs left in device memory, and the same answer
// as the CPU provider: a model with known answers and PP-OCRv4's text detector at 1280x736.
#include <gtest/gtest.h>

#include <cstdlib>

#include "device_data.hpp"
#include "gpu_guard.hpp"
#include "infer/onnx_model.hpp"
#include "onnx_models.hpp"

namespace vidpipe {
namespace {
using namespace test;  // the helpers of tests/support

// Runs `options`' model on the CPU provider and on the CUDA provider on a stream of our own, on
// the same input; returns the largest difference of their first outputs, or -1 without a CUDA
// provider (where run-on-device.sh staged one, VIDPIPE_ORT_CUDA_REQUIRED=1 makes that a failure).
double cuda_against_cpu(OnnxModelOptions options, int batch, float lo, float hi) {
  OnnxModel on_cpu(options);
  const std::size_t count = static_cast<std::size_t>(batch) * 3 * on_cpu.width() * on_cpu.height();
  const std::vector<float> input = random_floats(count, 3, lo, hi);
  const HostTensor want = on_cpu.run(input.data(), batch).at(0);
  cuda::Stream stream;
  options.provider = OnnxProvider::cuda;
  options.cuda_stream = stream.get();
  std::unique_ptr<OnnxModel> on_gpu;
  try {
    on_gpu = std::make_unique<OnnxModel>(options);
  } catch (const OnnxProviderError& e) {
    if (std::getenv("VIDPIPE_ORT_CUDA_REQUIRED")) ADD_FAILURE() << e.what();
    return -1;
  }
  cuda::DeviceBuffer d_input = to_device(input);
  const DeviceTensor got = on_gpu->run_on_device(d_input.as<float>(), batch).at(0);
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  EXPECT_EQ(got.info.dims, want.info.dims);
  std::vector<float> values(want.values.size());
  CUDA_CHECK(cudaMemcpy(values.data(), got.data, values.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (std::size_t i = 0; i < values.size(); ++i) worst = std::max(worst, std::abs(double(values[i]) - want.values[i]));
  return worst;
}

TEST(OnnxGpu, CudaProviderOnAStreamGivesTheCpuProvidersAnswer) {
  REQUIRE_GPU();
  MAKE_MODEL(path, "gpu-nchw-open", "--size open");
  OnnxModelOptions options{path};
  options.width = 640;
  options.height = 352;
  const double worst = cuda_against_cpu(options, 3, -1.f, 1.f);
  if (worst < 0) GTEST_SKIP() << "no CUDA provider here";
  EXPECT_LT(worst, 1e-5);
}

TEST(OnnxGpu, TextDetectorOnTheCudaProviderAgreesWithTheCpuProvider) {
  REQUIRE_GPU();
  REQUIRE_OCR_MODEL();
  OnnxModelOptions options{ocr_model()};
  options.width = 1280;
  options.height = 736;
  const double worst = cuda_against_cpu(options, 2, -2.f, 2.f);
  if (worst < 0) GTEST_SKIP() << "no CUDA provider here";
  // A probability map: cuDNN's convolutions run in TF32 (ONNX Runtime's default on sm_80 and
  // later) and sum in another order; 3e-3 was seen on the H100 with this random input.
  EXPECT_LT(worst, 1e-2);
}

}  // namespace
}  // namespace vidpipe
