// What the GPU tests share: random inputs, poisoned outputs (unwritten pixels show up as
// mismatches), copies to and from the device, and the relative error of METHOD.md.
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include "memory/cuda_raii.hpp"

namespace vidpipe::test {

inline std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, 255);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(d(rng));
  return v;
}

template <class T>
inline std::vector<T> download(const cuda::DeviceBuffer& d, std::size_t count) {
  std::vector<T> out(count);
  CUDA_CHECK(cudaMemcpy(out.data(), d.as(), count * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

inline cuda::DeviceBuffer upload(const std::vector<std::uint8_t>& host) {
  cuda::DeviceBuffer d(host.size());
  CUDA_CHECK(cudaMemcpy(d.as(), host.data(), host.size(), cudaMemcpyHostToDevice));
  return d;
}

// Poison (0xAB) the output first so unwritten pixels show up as mismatches.
inline cuda::DeviceBuffer poisoned(std::size_t bytes) {
  cuda::DeviceBuffer d(bytes);
  CUDA_CHECK(cudaMemset(d.as(), 0xAB, bytes));
  return d;
}

inline std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

inline cuda::DeviceBuffer to_device(const std::vector<float>& v) {
  cuda::DeviceBuffer d(v.size() * sizeof(float));
  CUDA_CHECK(cudaMemcpy(d.as(), v.data(), d.bytes(), cudaMemcpyHostToDevice));
  return d;
}

inline std::vector<float> to_host(const cuda::DeviceBuffer& d, std::size_t n) {
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> v(n);
  CUDA_CHECK(cudaMemcpy(v.data(), d.as(), n * sizeof(float), cudaMemcpyDeviceToHost));
  return v;
}

inline cuda::DeviceBuffer poisoned_floats(std::size_t floats) {
  cuda::DeviceBuffer d(floats * sizeof(float));
  CUDA_CHECK(cudaMemset(d.as(), 0xFF, d.bytes()));  // NaN: unwritten outputs fail the check
  return d;
}

inline double relative_error(const std::vector<float>& got, const std::vector<float>& want) {
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(got[i])) return INFINITY;
    err += (double(got[i]) - want[i]) * (double(got[i]) - want[i]);
    norm += double(want[i]) * want[i];
  }
  return std::sqrt(err / norm);
}

}  // namespace vidpipe::test
