#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "face_assets.hpp"
#include "device/face_model.hpp"

namespace vidpipe {
namespace {

namespace fs = std::filesystem;

std::string load_error(const std::string& dir) {
  try {
    load_tiny_face_model(dir);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A copy of the real model that a test may damage.
std::string model_copy(const std::string& name) {
  const fs::path dir = fs::path(test::scratch_dir()) / name;
  fs::create_directories(dir);
  for (const char* f : {tiny_face_manifest, "tiny_face_detector_model.bin"})
    fs::copy_file(fs::path(test::model_dir()) / f, dir / f, fs::copy_options::overwrite_existing);
  return dir.string();
}

TEST(FaceModel, LoadsAndDequantisesTheShippedWeights) {
  const TinyFaceWeights w = load_tiny_face_model(test::model_dir());
  EXPECT_EQ(w.conv0_filters.size(), 3u * 3 * 3 * 16);
  EXPECT_EQ(w.separable[4].pointwise.size(), 256u * 512);
  EXPECT_EQ(w.conv8_bias.size(), 25u);
  // conv0/filters is the first tensor: element [ky=0][kx=0][in=0][out=1] is byte 1 of
  // the .bin, and lands at [out=1][in=0][0][0] after the transpose.
  std::ifstream manifest(fs::path(test::model_dir()) / tiny_face_manifest);
  const auto q = nlohmann::json::parse(manifest)[0]["weights"][0]["quantization"];
  std::ifstream bin(fs::path(test::model_dir()) / "tiny_face_detector_model.bin", std::ios::binary);
  unsigned char bytes[2];
  bin.read(reinterpret_cast<char*>(bytes), 2);
  EXPECT_NEAR(w.conv0_filters[1 * 27], bytes[1] * q["scale"].get<double>() + q["min"].get<double>(), 1e-6);
  EXPECT_NEAR(w.conv0_filters[0], bytes[0] * q["scale"].get<double>() + q["min"].get<double>(), 1e-6);
}

TEST(FaceModel, MissingFilesNameThePath) {
  EXPECT_NE(load_error("/no/such/model").find("/no/such/model/" + std::string(tiny_face_manifest)), std::string::npos);
  const std::string dir = model_copy("no-bin");
  fs::remove(fs::path(dir) / "tiny_face_detector_model.bin");
  EXPECT_NE(load_error(dir).find("tiny_face_detector_model.bin' is missing"), std::string::npos) << load_error(dir);
}

TEST(FaceModel, TruncatedWeightsAreAnError) {
  const std::string dir = model_copy("truncated");
  fs::resize_file(fs::path(dir) / "tiny_face_detector_model.bin", 150000);
  const std::string e = load_error(dir);
  EXPECT_NE(e.find("weights file is truncated at tensor conv5/pointwise_filter"), std::string::npos) << e;
}

TEST(FaceModel, ExtraBytesAreAnError) {
  const std::string dir = model_copy("extra");
  std::ofstream(fs::path(dir) / "tiny_face_detector_model.bin", std::ios::app | std::ios::binary) << "xx";
  EXPECT_NE(load_error(dir).find("2 bytes more than the manifest describes"), std::string::npos) << load_error(dir);
}

TEST(FaceModel, MismatchedShapeNamesTheTensor) {
  const std::string dir = model_copy("mismatch");
  const fs::path mpath = fs::path(dir) / tiny_face_manifest;
  nlohmann::json m = nlohmann::json::parse(std::ifstream(mpath));
  // Swap two dimensions: same byte count, wrong layout.
  m[0]["weights"][0]["shape"] = {3, 3, 16, 3};
  std::ofstream(mpath) << m.dump();
  const std::string e = load_error(dir);
  EXPECT_NE(e.find("tensor conv0/filters has shape [3,3,16,3], expected [3,3,3,16]"), std::string::npos) << e;
}

TEST(FaceModel, BrokenManifestIsAnError) {
  const std::string dir = model_copy("broken");
  std::ofstream(fs::path(dir) / tiny_face_manifest) << "[{\"weights\": [";
  EXPECT_NE(load_error(dir).find("is not valid JSON"), std::string::npos) << load_error(dir);
}

}  // namespace
}  // namespace vidpipe
