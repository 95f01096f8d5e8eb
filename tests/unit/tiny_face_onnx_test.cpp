// TinyFaceDetector exported to ONNX by scripts/export-tiny-face-onnx.py from the same face-api
// weights (issue 35): ONNX Runtime's CPU provider gives the CPU reference's output grid.
#include <gtest/gtest.h>

#include "device/face_model.hpp"
#include "device_data.hpp"
#include "face_assets.hpp"
#include "infer/onnx_model.hpp"
#include "onnx_models.hpp"
#include "tiny_face/tiny_face_layers_ref.hpp"

namespace vidpipe {
namespace {

TEST(TinyFaceOnnx, OnnxRuntimeGivesTheReferencesGrid) {
  const std::string path = test::exported_tiny_face(224);
  if (path.empty()) GTEST_SKIP() << "no python3-onnx here to export the model (setup installs it)";
  const TinyFaceWeights weights = load_tiny_face_model(test::model_dir());
  OnnxModel model({path});
  ASSERT_EQ(model.width(), 224);
  const int batch = 2, size = 224;
  const std::vector<float> input = test::random_floats(std::size_t(batch) * 3 * size * size, 9, -0.5f, 0.5f);
  const std::vector<HostTensor> out = model.run(input.data(), batch);
  ASSERT_EQ(out.size(), 1u);
  const int cells = TinyFaceShape(size).cells();
  ASSERT_EQ(out[0].info.dims, (std::vector<std::int64_t>{batch, 25, cells, cells}));
  for (int b = 0; b < batch; ++b) {
    const std::vector<float> want = reference::tiny_face_forward(weights, input.data() + b * 3 * size * size, size);
    double worst = 0, largest = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      worst = std::max(worst, std::abs(double(out[0].values[b * want.size() + i]) - want[i]));
      largest = std::max(largest, std::abs(double(want[i])));
    }
    EXPECT_LT(worst, 1e-4 * std::max(1.0, largest)) << "frame " << b;
  }
}

}  // namespace
}  // namespace vidpipe
