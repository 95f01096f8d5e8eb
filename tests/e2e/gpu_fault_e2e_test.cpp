// CUDA errors on the lent GPU: a device fault mid-run (a kernel that traps, which
// leaves the context as unusable as an Xid or a reset would) and a pool too big for
// the device. Each must end in one clear line and exit 4, with the output finalised
// and holding every frame that reached the sink. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "cli_runner.hpp"
#include "memory/cuda_raii.hpp"
#include "test_media.hpp"

namespace vidpipe {
namespace {

using test::read_json;
using test::vidpipe;

std::string scratch(const std::string& name) { return test::scratch_dir() + "/" + name; }

// Lines vidpipe printed as errors (its own "vidpipe: ..." lines, not the log).
std::vector<std::string> error_lines(const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("vidpipe: ", 0) == 0) lines.push_back(line);
  return lines;
}

TEST(GpuFaultE2E, DeviceFaultMidRunIsOneLineAndKeepsEveryFinishedFrame) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: the fault is a GPU kernel";
  const std::string clip = test::make_clip("fault.mp4", 320, 240, 120, "-c:v libx264 -pix_fmt yuv420p");
  const std::string out = scratch("fault-out.mp4"), report = scratch("fault-report.json");
  std::filesystem::remove(out);
  test::CommandResult r;
  {
    test::ScopedEnv fault("VIDPIPE_INJECT_FAULT", "gpu-trap:60");
    r = vidpipe("run --input " + clip + " --set copy.mode=async --set copy.streams=2 --set sink.codec=libx264" +
                " --set sink.threads=1 --set metrics.warmup_frames=5 --set sink.path=" + out + " --report " + report);
  }
  EXPECT_EQ(r.code, 4) << r.output;
  const auto errors = error_lines(r.output);
  ASSERT_EQ(errors.size(), 1u) << r.output;
  EXPECT_NE(errors[0].find("cudaErrorLaunchFailure"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("the GPU context is lost"), std::string::npos) << errors[0];
  EXPECT_EQ(r.output.find("terminate called"), std::string::npos) << r.output;

  ASSERT_TRUE(std::filesystem::exists(out)) << "output not finalised under its name:\n" << r.output;
  EXPECT_FALSE(test::temporary_left(out));
  const auto j = read_json(report);
  EXPECT_NE(j.at("error").get<std::string>().find("cudaErrorLaunchFailure"), std::string::npos);
  const auto reached = j.at("frames").get<std::size_t>();
  // Frame 60's batch never finishes; at most the 4 slots before it fail with it.
  EXPECT_LE(reached, 60u);
  EXPECT_GE(reached, 50u);
  EXPECT_EQ(test::decode_all(out).frames.size(), reached) << "every frame that reached the sink is in the file";
}

TEST(GpuFaultE2E, PoolTooBigForTheDeviceIsOneLine) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: GPU memory is what runs out";
  const std::string clip = test::make_clip("uhd3.mp4", 3840, 2160, 3, "-c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const std::string out = scratch("oom-out.mp4");
  std::filesystem::remove(out);
  // 64 slots x 64 frames of 4K YUV plus BGR: ~150 GB, more than any one GPU here.
  const auto r = vidpipe("run --input " + clip + " --set copy.streams=32 --set copy.batch_size=64 --set sink.path=" + out);
  EXPECT_EQ(r.code, 4) << r.output;
  const auto errors = error_lines(r.output);
  ASSERT_EQ(errors.size(), 1u) << r.output;
  EXPECT_NE(errors[0].find("not enough GPU memory for 64 slots of batch 64"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("lower copy.streams or copy.batch_size"), std::string::npos) << errors[0];
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(test::temporary_left(out));
}

}  // namespace
}  // namespace vidpipe
