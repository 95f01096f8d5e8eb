// Each CUDA kernel against its CPU reference on fresh random inputs, batched, at
// sizes that leave partial blocks (odd widths) so edge handling is exercised too.
#include <gtest/gtest.h>

#include <random>

#include "colour_matrix.hpp"
#include "cuda_raii.hpp"
#include "frame_layout.hpp"
#include "gpu_guard.hpp"
#include "letterbox.hpp"
#include "normalise.cuh"
#include "reference/reference.hpp"
#include "resize_letterbox.cuh"
#include "tiny_face_net.hpp"
#include "yuv_to_bgr.cuh"

namespace vidpipe {
namespace {

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, 255);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(d(rng));
  return v;
}

template <class T>
std::vector<T> download(const cuda::DeviceBuffer& d, std::size_t count) {
  std::vector<T> out(count);
  CUDA_CHECK(cudaMemcpy(out.data(), d.as(), count * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

cuda::DeviceBuffer upload(const std::vector<std::uint8_t>& host) {
  cuda::DeviceBuffer d(host.size());
  CUDA_CHECK(cudaMemcpy(d.as(), host.data(), host.size(), cudaMemcpyHostToDevice));
  return d;
}

// Poison (0xAB) the output first so unwritten pixels show up as mismatches.
cuda::DeviceBuffer poisoned(std::size_t bytes) {
  cuda::DeviceBuffer d(bytes);
  CUDA_CHECK(cudaMemset(d.as(), 0xAB, bytes));
  return d;
}

struct YuvCase {
  int width, height;
  bool nv12;
  ColourStandard standard;
  ColourRange range;
};

class YuvToBgrGpu : public ::testing::TestWithParam<YuvCase> {};

TEST_P(YuvToBgrGpu, MatchesReference) {
  REQUIRE_GPU();
  const YuvCase c = GetParam();
  const int batch = 3;
  const YuvLayout l = make_yuv_layout(c.width, c.height, c.width, c.height + 16, c.nv12);
  const auto frames = random_bytes(l.frame_bytes * batch, 1234 + c.width);
  const ColourMatrix m = make_colour_matrix(c.standard, c.range);
  const std::size_t out_bytes = static_cast<std::size_t>(c.width) * c.height * 3;
  cuda::DeviceBuffer d_in = upload(frames);
  cuda::DeviceBuffer d_out = poisoned(out_bytes * batch);
  launch_yuv_to_bgr(d_in.as(), l, batch, m, d_out.as(), out_bytes, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_out, out_bytes * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<std::uint8_t> ref(out_bytes);
    reference::yuv_to_bgr(frames.data() + b * l.frame_bytes, l, m, ref.data());
    int worst = 0;
    for (std::size_t i = 0; i < out_bytes; ++i) worst = std::max(worst, std::abs(int(gpu[b * out_bytes + i]) - ref[i]));
    EXPECT_LE(worst, 1) << "frame " << b << ": float vs double rounding may differ by one code, no more";
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, YuvToBgrGpu,
                         ::testing::Values(YuvCase{640, 360, false, ColourStandard::bt709, ColourRange::limited},
                                           YuvCase{333, 97, false, ColourStandard::bt601, ColourRange::full},
                                           YuvCase{320, 240, true, ColourStandard::bt601, ColourRange::limited},
                                           YuvCase{129, 65, true, ColourStandard::bt709, ColourRange::full}),
                         [](const auto& info) {
                           const YuvCase& c = info.param;
                           return std::to_string(c.width) + "x" + std::to_string(c.height) + (c.nv12 ? "_nv12" : "_i420");
                         });

struct ResizeCase {
  int src_w, src_h, dst_w, dst_h;
  LetterboxAlign align;
};

class ResizeGpu : public ::testing::TestWithParam<ResizeCase> {};

TEST_P(ResizeGpu, MatchesReference) {
  REQUIRE_GPU();
  const ResizeCase c = GetParam();
  const int batch = 2;
  const std::size_t src_bytes = static_cast<std::size_t>(c.src_w) * c.src_h * 3;
  const std::size_t dst_bytes = static_cast<std::size_t>(c.dst_w) * c.dst_h * 3;
  const auto src = random_bytes(src_bytes * batch, 99 + c.src_w);
  const Letterbox lb = make_letterbox(c.src_w, c.src_h, c.dst_w, c.dst_h, c.align);
  cuda::DeviceBuffer d_src = upload(src);
  cuda::DeviceBuffer d_dst = poisoned(dst_bytes * batch);
  launch_resize_letterbox(d_src.as(), c.src_w, c.src_h, src_bytes, batch, lb, d_dst.as(), dst_bytes, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<std::uint8_t>(d_dst, dst_bytes * batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<std::uint8_t> ref(dst_bytes);
    reference::resize_letterbox(src.data() + b * src_bytes, c.src_w, c.src_h, lb, ref.data());
    int worst = 0;
    for (std::size_t i = 0; i < dst_bytes; ++i) worst = std::max(worst, std::abs(int(gpu[b * dst_bytes + i]) - ref[i]));
    EXPECT_LE(worst, 1) << "frame " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, ResizeGpu,
                         ::testing::Values(ResizeCase{3840, 2160, 416, 416, LetterboxAlign::top_left},
                                           ResizeCase{641, 479, 320, 320, LetterboxAlign::centre},
                                           ResizeCase{100, 300, 128, 96, LetterboxAlign::centre},
                                           ResizeCase{50, 40, 200, 160, LetterboxAlign::top_left}),
                         [](const auto& info) {
                           const ResizeCase& c = info.param;
                           return std::to_string(c.src_w) + "x" + std::to_string(c.src_h) + "_to_" +
                                  std::to_string(c.dst_w) + "x" + std::to_string(c.dst_h);
                         });

TEST(NormaliseGpu, MatchesReference) {
  REQUIRE_GPU();
  const int w = 417, h = 133, batch = 4;
  const std::size_t pixels = static_cast<std::size_t>(w) * h;
  const auto src = random_bytes(pixels * 3 * batch, 7);
  const Normalisation n = tiny_face_normalisation();
  cuda::DeviceBuffer d_src = upload(src);
  cuda::DeviceBuffer d_dst = poisoned(pixels * 3 * batch * sizeof(float));
  launch_normalise(d_src.as(), w, h, batch, n, d_dst.as<float>(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gpu = download<float>(d_dst, pixels * 3 * batch);
  double err = 0, norm = 0;
  for (int b = 0; b < batch; ++b) {
    std::vector<float> ref(pixels * 3);
    reference::normalise(src.data() + b * pixels * 3, w, h, n, ref.data());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const double d = double(gpu[b * pixels * 3 + i]) - ref[i];
      ASSERT_FALSE(std::isnan(gpu[b * pixels * 3 + i]));
      err += d * d;
      norm += double(ref[i]) * ref[i];
    }
  }
  EXPECT_LT(std::sqrt(err / norm), 1e-6);
}

}  // namespace
}  // namespace vidpipe
