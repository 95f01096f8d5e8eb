// A user's ONNX model through ONNX Runtime's CPU provider: its image input and outputs read
// from the file, a run's values against the model's known answer (make_onnx_model.py: one
// 1x1 convolution, out[0] the channels' mean, out[1] the first less the third), and each
// model that does not fit refused at the start with its path and the tensor named.
#include <gtest/gtest.h>

#include <fstream>

#include "base/errors.hpp"
#include "infer/onnx_model.hpp"
#include "onnx_models.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

std::string error_of(const OnnxModelOptions& options) {
  try {
    OnnxModel model(options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(OnnxModel, ReadsTheImageInputAndRunsOnTheCpu) {
  MAKE_MODEL(path, "nchw-8x6", "--size 8x6");
  OnnxModel model({path});
  EXPECT_EQ(model.input().name, "image");
  EXPECT_EQ(model.input().batch, -1) << "an open batch";
  EXPECT_EQ(model.width(), 6);
  EXPECT_EQ(model.height(), 8);
  ASSERT_EQ(model.outputs().size(), 1u);
  EXPECT_EQ(model.outputs()[0].name, "heat");
  EXPECT_EQ(shape_text(model.outputs()[0].dims), "[?, 2, 8, 6]");
  // Two frames: pixel i of channel c is i + 100 c (frame 0) and twice that (frame 1).
  const int pixels = 8 * 6;
  std::vector<float> input(2 * 3 * pixels);
  for (int b = 0; b < 2; ++b)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < pixels; ++i) input[(b * 3 + c) * pixels + i] = static_cast<float>((b + 1) * (i + 100 * c));
  const std::vector<HostTensor> out = model.run(input.data(), 2);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].info.dims, (std::vector<std::int64_t>{2, 2, 8, 6}));
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < pixels; ++i) {
      const float scale = static_cast<float>(b + 1);
      EXPECT_NEAR(out[0].values[(b * 2 + 0) * pixels + i], scale * (i + 100), 1e-3) << "mean, frame " << b;
      EXPECT_NEAR(out[0].values[(b * 2 + 1) * pixels + i], scale * -200, 1e-3) << "first less third, frame " << b;
    }
}

TEST(OnnxModel, AnNhwcModelOfOpenSizeTakesTheSizeGiven) {
  MAKE_MODEL(path, "nhwc-open", "--layout nhwc --size open");
  OnnxModelOptions options{path};
  options.layout = TensorLayout::nhwc;
  options.width = 4;
  options.height = 2;
  OnnxModel model(options);
  EXPECT_EQ(model.width(), 4);
  EXPECT_EQ(model.height(), 2);
  std::vector<float> input(2 * 4 * 3);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 3 == 0 ? 9 : i % 3 == 1 ? 6 : 3);
  const std::vector<HostTensor> out = model.run(input.data(), 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].info.dims, (std::vector<std::int64_t>{1, 2, 4, 2}));
  for (int px = 0; px < 8; ++px) {
    EXPECT_NEAR(out[0].values[px * 2], 6, 1e-4);     // (9 + 6 + 3) / 3
    EXPECT_NEAR(out[0].values[px * 2 + 1], 6, 1e-4);  // 9 - 3
  }
}

TEST(OnnxModel, MissingAndUnreadableFilesNameThePath) {
  EXPECT_NE(error_of({"/nowhere/model.onnx"}).find("'/nowhere/model.onnx': gpu.model: no such model file"),
            std::string::npos);
  const std::string text = test::scratch_dir() + "/not-a-model.onnx";
  std::ofstream(text) << "this is not a protobuf";
  const std::string e = error_of({text});
  EXPECT_NE(e.find("'" + text + "': not a model ONNX Runtime can load:"), std::string::npos) << e;
}

TEST(OnnxModel, InputsThatAreNotAFloatImageAreRefusedNamingTheTensor) {
  MAKE_MODEL(bytes, "uint8", "--input-type uint8");
  std::string e = error_of({bytes});
  EXPECT_NE(e.find("input 'image' is uint8 [?, 3, 8, 6]: a float image tensor is needed"), std::string::npos) << e;
  MAKE_MODEL(rank3, "rank3", "--rank 3");
  e = error_of({rank3});
  EXPECT_NE(e.find("input 'image' is float [3, 8, 6]: a 4-D image tensor"), std::string::npos) << e;
}

TEST(OnnxModel, LayoutSizeAndInputNameMistakesSayWhatToSet) {
  MAKE_MODEL(nhwc, "nhwc-fixed", "--layout nhwc --size 8x6");
  std::string e = error_of({nhwc});  // read as NCHW, the default
  EXPECT_NE(e.find("with gpu.onnx.layout nchw its channels are 8, not 3 (it reads as nhwc: set gpu.onnx.layout)"),
            std::string::npos)
      << e;
  MAKE_MODEL(open, "open", "--size open");
  e = error_of({open});
  EXPECT_NE(e.find("its size is open; set gpu.onnx.width and gpu.onnx.height"), std::string::npos) << e;
  MAKE_MODEL(fixed, "fixed", "--size 8x6");
  OnnxModelOptions other{fixed};
  other.width = other.height = 32;
  e = error_of(other);
  EXPECT_NE(e.find("it takes 6x8, gpu.onnx.width and height say 32x32"), std::string::npos) << e;
  MAKE_MODEL(two, "two-inputs", "--inputs 2");
  e = error_of({two});
  EXPECT_NE(e.find("the model has 2 inputs (image [?, 3, 8, 6], scale [1]): gpu.onnx.input names the image"),
            std::string::npos)
      << e;
  OnnxModelOptions named{two};
  named.input_name = "picture";
  e = error_of(named);
  EXPECT_NE(e.find("gpu.onnx.input: no input 'picture'"), std::string::npos) << e;
  named.input_name = "image";
  EXPECT_EQ(error_of(named), "");
}

}  // namespace
}  // namespace vidpipe
