#include "device/face_model.hpp"

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "base/errors.hpp"

namespace vidpipe {
namespace {

struct Tensor {
  std::vector<int> shape;
  std::vector<float> values;  // in the file's (TensorFlow, channels-last) order
};

std::string shape_text(const std::vector<int>& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + "]";
}

std::vector<char> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError("model file '" + p.string() + "' is missing (scripts/setup.sh fetches it)");
  return std::vector<char>((std::istreambuf_iterator<char>(in)), {});
}

// Every tensor of the manifest, dequantised: value = q * scale + min (face-api's rule).
std::map<std::string, Tensor> read_tensors(const std::filesystem::path& dir) {
  const std::filesystem::path manifest_path = dir / tiny_face_manifest;
  const std::vector<char> manifest_text = read_file(manifest_path);
  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(manifest_text.begin(), manifest_text.end());
  } catch (const nlohmann::json::exception& e) {
    throw InputError("model manifest '" + manifest_path.string() + "' is not valid JSON: " + e.what());
  }
  std::map<std::string, Tensor> tensors;
  try {
    for (const auto& group : manifest) {
      std::vector<char> bin;
      for (const auto& p : group.at("paths")) {
        const std::vector<char> part = read_file(dir / p.get<std::string>());
        bin.insert(bin.end(), part.begin(), part.end());
      }
      std::size_t offset = 0;
      for (const auto& w : group.at("weights")) {
        Tensor t;
        const std::string name = w.at("name");
        t.shape = w.at("shape").get<std::vector<int>>();
        std::size_t count = 1;
        for (int d : t.shape) count *= static_cast<std::size_t>(d);
        const bool quantised = w.contains("quantization");
        const std::string dtype = quantised ? w.at("quantization").at("dtype").get<std::string>()
                                            : w.at("dtype").get<std::string>();
        const std::size_t width = dtype == "uint8" ? 1 : dtype == "uint16" ? 2 : dtype == "float32" ? 4 : 0;
        if (width == 0) throw InputError("model '" + manifest_path.string() + "': tensor " + name + " has unsupported dtype " + dtype);
        if (offset + count * width > bin.size())
          throw InputError("model '" + manifest_path.string() + "': weights file is truncated at tensor " + name + " (" +
                           std::to_string(bin.size()) + " bytes)");
        t.values.resize(count);
        const auto* bytes = reinterpret_cast<const unsigned char*>(bin.data() + offset);
        const double scale = quantised ? w.at("quantization").at("scale").get<double>() : 1.0;
        const double min = quantised ? w.at("quantization").at("min").get<double>() : 0.0;
        for (std::size_t i = 0; i < count; ++i) {
          if (width == 4) {
            std::memcpy(&t.values[i], bytes + 4 * i, 4);
          } else {
            const unsigned q = width == 1 ? bytes[i] : unsigned(bytes[2 * i]) | unsigned(bytes[2 * i + 1]) << 8;
            t.values[i] = static_cast<float>(q * scale + min);
          }
        }
        offset += count * width;
        tensors[name] = std::move(t);
      }
      if (offset != bin.size())
        throw InputError("model '" + manifest_path.string() + "': weights file has " + std::to_string(bin.size() - offset) +
                         " bytes more than the manifest describes");
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError("model manifest '" + manifest_path.string() + "': " + e.what());
  }
  return tensors;
}

const Tensor& take(const std::map<std::string, Tensor>& tensors, const std::string& name,
                   const std::vector<int>& shape, const std::filesystem::path& dir) {
  const auto it = tensors.find(name);
  if (it == tensors.end()) throw InputError("model '" + dir.string() + "': tensor " + name + " is missing");
  if (it->second.shape != shape)
    throw InputError("model '" + dir.string() + "': tensor " + name + " has shape " + shape_text(it->second.shape) +
                     ", expected " + shape_text(shape));
  return it->second;
}

}  // namespace

TinyFaceWeights load_tiny_face_model(const std::string& dir_name) {
  const std::filesystem::path dir(dir_name);
  const auto tensors = read_tensors(dir);
  const auto& ch = TinyFaceWeights::channels;
  TinyFaceWeights w;

  // TensorFlow keeps filters as [ky][kx][in][out]; the kernels want [out][in][ky][kx].
  const Tensor& f0 = take(tensors, "conv0/filters", {3, 3, ch[0], ch[1]}, dir);
  w.conv0_filters.resize(f0.values.size());
  for (int ky = 0; ky < 3; ++ky)
    for (int kx = 0; kx < 3; ++kx)
      for (int c = 0; c < ch[0]; ++c)
        for (int o = 0; o < ch[1]; ++o)
          w.conv0_filters[((o * ch[0] + c) * 3 + ky) * 3 + kx] = f0.values[((ky * 3 + kx) * ch[0] + c) * ch[1] + o];
  w.conv0_bias = take(tensors, "conv0/bias", {ch[1]}, dir).values;

  for (int l = 0; l < TinyFaceWeights::separable_layers; ++l) {
    const std::string p = "conv" + std::to_string(l + 1) + "/";
    auto& s = w.separable[l];
    s.in = ch[l + 1];
    s.out = ch[l + 2];
    const Tensor& dw = take(tensors, p + "depthwise_filter", {3, 3, s.in, 1}, dir);
    s.depthwise.resize(dw.values.size());
    for (int k = 0; k < 9; ++k)
      for (int c = 0; c < s.in; ++c) s.depthwise[c * 9 + k] = dw.values[k * s.in + c];
    const Tensor& pw = take(tensors, p + "pointwise_filter", {1, 1, s.in, s.out}, dir);
    s.pointwise.resize(pw.values.size());
    for (int c = 0; c < s.in; ++c)
      for (int o = 0; o < s.out; ++o) s.pointwise[o * s.in + c] = pw.values[c * s.out + o];
    s.bias = take(tensors, p + "bias", {s.out}, dir).values;
  }

  const Tensor& f8 = take(tensors, "conv8/filters", {1, 1, ch[6], TinyFaceWeights::outputs}, dir);
  w.conv8_filters.resize(f8.values.size());
  for (int c = 0; c < ch[6]; ++c)
    for (int o = 0; o < TinyFaceWeights::outputs; ++o)
      w.conv8_filters[o * ch[6] + c] = f8.values[c * TinyFaceWeights::outputs + o];
  w.conv8_bias = take(tensors, "conv8/bias", {TinyFaceWeights::outputs}, dir).values;
  return w;
}

}  // namespace vidpipe
