// A user's ONNX model in the GPU stage (issue 35), run as a user runs it (config/ocr.yaml):
// PP-OCRv4's text detector on a clip the test draws words on, stored upright and stored
// sideways with a rotation tag. Each word's ink (found in the decoded frame itself) must be
// covered by a box and no box may lie where there is no word. Then every way a model can be
// wrong is refused by exit code and a message naming the file and the tensor, before any output
// is touched.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "gpu_guard.hpp"
#include "onnx_models.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

struct Box {
  double x0, y0, x1, y1;
};

double iou(const Box& a, const Box& b) {
  const double w = std::max(0.0, std::min(a.x1, b.x1) - std::max(a.x0, b.x0));
  const double h = std::max(0.0, std::min(a.y1, b.y1) - std::max(a.y0, b.y0));
  const double inter = w * h;
  return inter / ((a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter);
}

// Each word in a band of rows of its own, so a word's ink is the dark pixels of its band.
struct Word {
  const char* text;
  int x, y, size;
};
constexpr Word words[] = {{"HELLO", 100, 80, 72}, {"video pipeline", 520, 280, 60}, {"2026", 160, 440, 56},
                          {"PINNED", 900, 600, 48}};
constexpr int width = 1280, height = 720, frames = 4;

// Made here where ffmpeg can draw text; else taken from $VIDPIPE_CLIPS (the GPU machine's
// ffmpeg has no drawtext: scripts/device/pack.sh makes it with this same command, see there).
std::string text_clip() {
  if (const char* dir = std::getenv("VIDPIPE_CLIPS"); dir && std::filesystem::exists(std::string(dir) + "/words.mp4"))
    return std::string(dir) + "/words.mp4";
  const std::string path = test::scratch_dir() + "/words.mp4";
  std::string draw;
  for (const Word& w : words)
    draw += fmt::format("{}drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:text='{}':fontsize={}:"
                        "fontcolor=black:x={}:y={}",
                        draw.empty() ? "" : ",", w.text, w.size, w.x, w.y);
  const int rc = test::run_command(fmt::format("ffmpeg -loglevel error -y -f lavfi -i color=c=white:s={}x{}:r=10 "
                                               "-vf \"{}\" -frames:v {} -c:v libx264 -qp 0 -pix_fmt yuv420p {}",
                                               width, height, draw, frames, path));
  return rc == 0 ? path : "";
}

// Where each word's ink is, read off the decoded picture (luma under 128 in its band).
std::vector<Box> ink_boxes(const std::string& clip) {
  const test::DecodedVideo v = test::decode_all(clip);
  std::vector<Box> boxes;
  for (const Word& w : words) {
    Box b{1e9, 1e9, -1, -1};
    for (int y = std::max(0, w.y - 20); y < std::min(height, w.y + w.size * 3 / 2); ++y)
      for (int x = 0; x < width; ++x)
        if (v.frames.at(0)[y * width + x] < 128)
          b = {std::min(b.x0, double(x)), std::min(b.y0, double(y)), std::max(b.x1, x + 1.0), std::max(b.y1, y + 1.0)};
    boxes.push_back(b);
  }
  return boxes;
}

std::vector<nlohmann::json> detections_of(const std::string& clip, const std::string& name, const std::string& sets,
                                          std::string* output = nullptr) {
  const std::string log = test::scratch_dir() + "/" + name + ".jsonl";
  const test::CommandResult r =
      test::vidpipe("run -c " + test::source_dir() + "/config/ocr.yaml --input " + clip +
                    " --set gpu.model=" + test::ocr_model() + " --set sink.kind=null --set metrics.live=false" +
                    " --set metrics.report= --detections " + log + " " + sets);
  EXPECT_EQ(r.code, 0) << r.output;
  if (output) *output = r.output;
  std::vector<nlohmann::json> lines;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

void expect_words_found(const std::vector<nlohmann::json>& lines, const std::vector<Box>& ink, const std::string& what) {
  ASSERT_EQ(static_cast<int>(lines.size()), frames) << what;
  for (const nlohmann::json& line : lines) {
    std::vector<Box> found;
    for (const auto& b : line.at("boxes")) found.push_back({b[0], b[1], b[2], b[3]});
    for (std::size_t w = 0; w < ink.size(); ++w) {
      double best = 0;
      for (const Box& f : found) best = std::max(best, iou(f, ink[w]));
      EXPECT_GE(best, 0.5) << what << ": frame " << line.at("frame") << ", word '" << words[w].text << "'";
    }
    for (const Box& f : found) {
      double best = 0;
      for (const Box& i : ink) best = std::max(best, iou(f, i));
      EXPECT_GE(best, 0.3) << what << ": frame " << line.at("frame") << ", a box at " << f.x0 << "," << f.y0
                           << " over no word";
    }
  }
}

TEST(OnnxE2E, TextDetectorBoxesCoverEachWordAndNothingElse) {
  REQUIRE_OCR_MODEL();
  const std::string clip = text_clip();
  ASSERT_FALSE(clip.empty()) << "ffmpeg could not draw the words";
  const std::vector<Box> ink = ink_boxes(clip);
  for (const Box& b : ink) ASSERT_GT(b.x1, b.x0) << "a word was not drawn";
  expect_words_found(detections_of(clip, "words-b1", ""), ink, "batch 1");
  // Frames batched into one run of the model: each frame's boxes are still its own.
  expect_words_found(detections_of(clip, "words-b3", "--set copy.batch_size=3"), ink, "batch 3");
}

// Stored turned a quarter counter-clockwise and tagged to be shown upright: the model sees the
// upright picture and the boxes are in its pixels, where the words are.
TEST(OnnxE2E, TextBoxesOfSidewaysStoredVideoLandOnTheUprightWords) {
  REQUIRE_OCR_MODEL();
  const std::string clip = text_clip();
  ASSERT_FALSE(clip.empty());
  const std::string sideways = test::scratch_dir() + "/words-sideways.mp4";
  const std::string tagged = test::scratch_dir() + "/words-tagged.mp4";
  if (test::run_command("ffmpeg -loglevel error -y -i " + clip + " -vf transpose=cclock -c:v libx264 -qp 0 " +
                        sideways) != 0)
    GTEST_SKIP() << "this ffmpeg has no transpose filter";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -i " + sideways + " -c copy -metadata:s:v:0 rotate=270 " +
                              tagged), 0);
  expect_words_found(detections_of(tagged, "words-tagged", ""), ink_boxes(clip), "rotation-tagged");
}

// On a GPU the model runs on the CUDA provider on the pipeline's streams, its map decoded by the
// heatmap kernel: the same boxes as the CPU provider and the decoder's CPU twin.
TEST(OnnxE2E, GpuRunFindsTheCpuRunsTextBoxes) {
  REQUIRE_GPU();
  REQUIRE_OCR_MODEL();
  const std::string clip = text_clip();
  ASSERT_FALSE(clip.empty());
  std::string log;
  const auto gpu = detections_of(clip, "words-gpu", "--set device=gpu --set copy.streams=2 --set copy.batch_size=2", &log);
  // The plain loop (sync copies, the tensor through host memory): the same boxes, slower.
  const auto plain = detections_of(clip, "words-plain", "--set device=gpu --set copy.mode=sync --set gpu.onnx.io=host");
  const auto cpu = detections_of(clip, "words-cpu", "--set device=cpu");
  if (std::getenv("VIDPIPE_ORT_CUDA_REQUIRED"))
    EXPECT_NE(log.find("ONNX model on the cuda provider"), std::string::npos) << log;
  for (const auto* run : {&gpu, &plain}) {
    ASSERT_EQ(run->size(), cpu.size());
    for (std::size_t f = 0; f < cpu.size(); ++f) {
      const auto& want = cpu[f].at("boxes");
      const auto& got = (*run)[f].at("boxes");
      ASSERT_EQ(got.size(), want.size()) << "frame " << f;
      for (std::size_t b = 0; b < want.size(); ++b) {
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(got[b][k].get<double>(), want[b][k].get<double>(), 1.0) << f << "/" << b;
        EXPECT_NEAR(got[b][4].get<double>(), want[b][4].get<double>(), 1e-3) << "score, frame " << f << " box " << b;
      }
    }
  }
}

// Each frame's faces in 16 frames of the bundled clip, as `args` find them.
std::vector<nlohmann::json> bundled_clip_faces(const std::string& name, const std::string& args) {
  const std::string log = test::scratch_dir() + "/" + name + ".jsonl";
  const test::CommandResult r = test::vidpipe("run " + args + " --input " + test::source_dir() +
                                              "/assets/sample-4k.mp4 --set input.max_frames=16 --set sink.kind=null "
                                              "--set metrics.live=false --set metrics.report= --detections " + log);
  EXPECT_EQ(r.code, 0) << r.output;
  std::vector<nlohmann::json> lines;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line).at("faces"));
  return lines;
}

double iou(const nlohmann::json& a, const nlohmann::json& b) {
  const double w = std::max(0.0, std::min(a[2].get<double>(), b[2].get<double>()) - std::max(a[0].get<double>(), b[0].get<double>()));
  const double h = std::max(0.0, std::min(a[3].get<double>(), b[3].get<double>()) - std::max(a[1].get<double>(), b[1].get<double>()));
  auto area = [](const nlohmann::json& r) { return (r[2].get<double>() - r[0].get<double>()) * (r[3].get<double>() - r[1].get<double>()); };
  return w * h / (area(a) + area(b) - w * h);
}

// MediaPipe's BlazeFace (config/blazeface.yaml: batch fixed at 1, four heads on two anchor
// grids) finds every face the built-in detector is sure of (score 0.5 or more) on the bundled
// clip, in batches of 2 run frame by frame; on a GPU the CUDA provider and the decoder's kernel
// on two streams give the CPU run's faces.
TEST(OnnxE2E, BlazeFaceFindsTheBuiltInDetectorsFaces) {
  if (!std::filesystem::exists(test::blazeface_model()))
    GTEST_SKIP() << "no BlazeFace model at " << test::blazeface_model() << " (scripts/fetch-onnx-models.sh)";
  const std::string config = "-c " + test::source_dir() + "/config/blazeface.yaml --set copy.batch_size=2 ";
  const auto built_in = bundled_clip_faces("bf-built-in", "--set device=cpu");
  const auto blaze = bundled_clip_faces("bf-cpu", config + "--set device=cpu");
  ASSERT_EQ(blaze.size(), built_in.size());
  int sure = 0;
  for (std::size_t f = 0; f < built_in.size(); ++f)
    for (const auto& face : built_in[f]) {
      if (face[4].get<double>() < 0.5) continue;
      ++sure;
      double best = 0;
      for (const auto& b : blaze[f]) best = std::max(best, iou(face, b));
      EXPECT_GE(best, 0.5) << "frame " << f << ": BlazeFace missed " << face.dump();
    }
  EXPECT_GT(sure, 8) << "the bundled clip's faces were not found";
  if (cuda::device_count() == 0) return;
  const auto gpu = bundled_clip_faces("bf-gpu", config + "--set device=gpu --set copy.streams=2");
  ASSERT_EQ(gpu.size(), blaze.size());
  for (std::size_t f = 0; f < blaze.size(); ++f) {
    ASSERT_EQ(gpu[f].size(), blaze[f].size()) << "frame " << f;
    for (std::size_t b = 0; b < blaze[f].size(); ++b) {
      // 4 px of a 4K frame: a quarter of a pixel of the network's 256.
      for (int k = 0; k < 4; ++k) EXPECT_NEAR(gpu[f][b][k].get<double>(), blaze[f][b][k].get<double>(), 4.0) << f << "/" << b;
      EXPECT_NEAR(gpu[f][b][4].get<double>(), blaze[f][b][4].get<double>(), 5e-3) << f << "/" << b;
    }
  }
}

// The built-in detector exported to ONNX from the same weights (scripts/export-tiny-face-onnx.py)
// and run through ONNX Runtime (config/face-onnx.yaml) finds the built-in kernels' faces on the
// bundled clip: one network, both ways (on a GPU: the CUDA provider against vidpipe's kernels).
TEST(OnnxE2E, TinyFaceThroughOnnxRuntimeFindsTheBuiltInDetectorsFaces) {
  // Exported here; where there is no python3-onnx (the GPU machine), the one setup exported.
  std::string model = test::exported_tiny_face(416);
  if (model.empty() && std::filesystem::exists(test::source_dir() + "/assets/models/tiny_face_detector.onnx"))
    model = test::source_dir() + "/assets/models/tiny_face_detector.onnx";
  if (model.empty()) GTEST_SKIP() << "no python3-onnx here to export the model (setup installs it)";
  const auto built_in = bundled_clip_faces("faces-built-in", "");
  const auto through_onnx =
      bundled_clip_faces("faces-onnx", "-c " + test::source_dir() + "/config/face-onnx.yaml --set gpu.model=" + model);
  ASSERT_EQ(through_onnx.size(), built_in.size());
  std::size_t found = 0;
  for (std::size_t f = 0; f < built_in.size(); ++f) {
    ASSERT_EQ(through_onnx[f].size(), built_in[f].size()) << "frame " << f;
    found += built_in[f].size();
    for (std::size_t b = 0; b < built_in[f].size(); ++b) {
      for (int k = 0; k < 4; ++k)
        EXPECT_NEAR(through_onnx[f][b][k].get<double>(), built_in[f][b][k].get<double>(), 1.0) << f << "/" << b;
      EXPECT_NEAR(through_onnx[f][b][4].get<double>(), built_in[f][b][4].get<double>(), 1e-3) << f << "/" << b;
    }
  }
  EXPECT_GT(found, 0u) << "the bundled clip's faces were not found";
}

// "cpu", and "gpu" where there is one.
std::vector<std::string> devices_here() {
  if (cuda::device_count() == 0) return {"cpu"};
  return {"cpu", "gpu"};
}

// Each line of the detections file of a run of `clip` through `model` on `device`, in batches
// of 2.
std::vector<nlohmann::json> detection_lines(const std::string& clip, const std::string& model, const std::string& device,
                                            const std::string& sets) {
  const std::string log = test::scratch_dir() + "/lines-" + device + ".jsonl";
  const auto r = test::vidpipe("run --input " + clip + " --set device=" + device + " --set gpu.model=" + model + " " +
                               sets + " --set copy.batch_size=2 --set sink.kind=null --set metrics.report= --detections " +
                               log);
  EXPECT_EQ(r.code, 0) << r.output;
  std::vector<nlohmann::json> lines;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

// The raw decoder on a model whose every output is known (make_onnx_model.py: the channels'
// mean, and R - B) over a red picture stretched to its input: each frame's line summarises the
// output, no boxes; the same on a GPU (its kernel) as on the CPU (the twin).
TEST(OnnxE2E, RawDecoderSummarisesEachFramesOutput) {
  MAKE_MODEL(model, "e2e-raw", "--size 8x6");
  const std::string clip = test::scratch_dir() + "/red.mp4";
  ASSERT_EQ(test::run_command("ffmpeg -loglevel error -y -f lavfi -i color=c=red:size=160x120:rate=10 -frames:v 6 "
                              "-c:v libx264 -pix_fmt yuv444p -qp 0 " + clip),
            0);
  for (const std::string device : devices_here()) {
    const auto lines = detection_lines(clip, model, device, "--set gpu.onnx.decoder=raw --set gpu.onnx.fit=stretch");
    EXPECT_EQ(lines.size(), 6u) << device;
    for (const nlohmann::json& j : lines) {
      const std::string line = j.dump();
      EXPECT_FALSE(j.contains("boxes")) << line;
      const auto& t = j.at("tensor");
      // Red is (1, 0, 0) within the YUV round trip: the mean channel 1/3, R - B 1.
      EXPECT_NEAR(t.at("min").get<double>(), 1.0 / 3, 0.02) << line;
      EXPECT_NEAR(t.at("max").get<double>(), 1.0, 0.03) << line;
      EXPECT_NEAR(t.at("mean").get<double>(), 2.0 / 3, 0.02) << line;
      EXPECT_GE(t.at("argmax").get<int>(), 8 * 6) << "the largest is in the second channel: " << line;
      EXPECT_EQ(t.at("nonfinite").get<int>(), 0) << line;
    }
  }
}

// The boxes decoder end to end on a model whose head is known (make_onnx_model.py --head yolo:
// one box of class 2 at 0.9 at 24..40 x 20..28 of its 64x64 input): every frame's line has that
// box, in source pixels through the letterbox (a 160x120 clip at 0.4, no padding above it), and
// its class; on a GPU as on the CPU.
TEST(OnnxE2E, BoxesKeepTheirClassAndLandInSourcePixels) {
  MAKE_MODEL(model, "e2e-yolo", "--size 64x64 --head yolo");
  const std::string clip = test::make_clip("onnx-yolo.mp4", 160, 120, 5, "-c:v libx264 -pix_fmt yuv420p");
  for (const std::string device : devices_here()) {
    const auto lines = detection_lines(clip, model, device, "--set gpu.onnx.decoder=boxes");
    EXPECT_EQ(lines.size(), 5u) << device;
    for (const nlohmann::json& j : lines) {
      const std::string line = j.dump();
      const auto& boxes = j.at("boxes");
      ASSERT_EQ(boxes.size(), 1u) << line;
      const std::vector<double> want{60, 50, 100, 70, 0.9, 2};
      ASSERT_EQ(boxes[0].size(), want.size()) << line;
      for (std::size_t k = 0; k < want.size(); ++k) EXPECT_NEAR(boxes[0][k].get<double>(), want[k], 0.01) << k << ": " << line;
    }
  }
}

// Every way a model can be wrong: exit 3 (2 for a file that is not there), a message naming
// the model's path (and the tensor, the shape found and the one expected), and no output begun.
TEST(OnnxE2E, ModelsThatDoNotFitAreRefusedBeforeAnyOutput) {
  MAKE_MODEL(fixed, "e2e-fixed", "--size 64x64 --batch open");
  MAKE_MODEL(open, "e2e-open", "--size open");
  MAKE_MODEL(bytes, "e2e-uint8", "--input-type uint8");
  MAKE_MODEL(future, "e2e-opset99", "--opset 99");
  MAKE_MODEL(batch4, "e2e-batch4", "--size 64x64 --batch 4");
  const std::string text = test::scratch_dir() + "/not-a-model.onnx";
  std::ofstream(text) << "this is not a model\n";
  struct Case {
    std::string name, sets, message;
    int code;
  };
  const Case cases[] = {
      {"missing", "--set gpu.model=/nonexistent/m.onnx", "no ONNX model file '/nonexistent/m.onnx'", 2},
      {"not onnx", "--set gpu.model=" + text, "'" + text + "': not a model ONNX Runtime can load", 3},
      {"uint8 input", "--set gpu.model=" + bytes, "input 'image' is uint8 [?, 3, 8, 6]: a float image tensor is needed", 3},
      {"layout", "--set gpu.model=" + fixed + " --set gpu.onnx.layout=nhwc", "(it reads as nchw: set gpu.onnx.layout)", 3},
      {"open size", "--set gpu.model=" + open, "its size is open; set gpu.onnx.width and gpu.onnx.height", 3},
      {"decoder", "--set gpu.model=" + fixed + " --set gpu.onnx.decoder=heatmap",
       "output 'heat' is [?, 2, 64, 64]; gpu.onnx.decoder heatmap reads [N, 1, H, W] or [N, H, W]", 3},
      {"output name", "--set gpu.model=" + fixed + " --set gpu.onnx.output=boxes", "no float output 'boxes'", 3},
      {"opset", "--set gpu.model=" + future + " --set gpu.onnx.width=8 --set gpu.onnx.height=6", "Opset 99", 3},
      {"fixed batch", "--set gpu.model=" + batch4, "input 'image' is for batches of exactly 4", 3},
      {"blazeface heads", "--set gpu.model=" + fixed + " --set gpu.onnx.decoder=blazeface",
       "gpu.onnx.decoder blazeface reads score logits [N, A, 1] and boxes [N, A, 16] on BlazeFace's two anchor "
       "grids (A = 896 in one pair, or 512 and 384 in two); the model's float outputs are heat [?, 2, 64, 64]", 3},
      {"blazeface output", "--set gpu.model=" + fixed + " --set gpu.onnx.decoder=blazeface --set gpu.onnx.output=heat",
       "'heat': gpu.onnx.decoder blazeface finds its four outputs by their shapes; leave gpu.onnx.output empty", 2},
  };
  const std::string clip = test::make_clip("onnx-bad.mp4", 160, 120, 3, "-c:v libx264 -pix_fmt yuv420p");
  for (const Case& c : cases) {
    const std::string out = test::scratch_dir() + "/bad-model.mp4";
    std::filesystem::remove(out);
    const test::CommandResult r = test::vidpipe("run --input " + clip + " --set sink.path=" + out +
                                                " --set metrics.report= " + c.sets);
    EXPECT_EQ(r.code, c.code) << c.name << ": " << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.name << ": " << r.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.name << ": the output was begun";
    EXPECT_FALSE(test::temporary_left(out)) << c.name;
  }
}

}  // namespace
}  // namespace vidpipe
