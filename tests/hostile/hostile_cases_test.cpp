// The hostile suite's cases (tests/hostile/*.yaml), each registered as a test of its own
// (HostileCase<Class>.<Name>), so ctest runs, times and reports them one by one.
#include <gtest/gtest.h>

#include <iostream>

#include "hostile_case.hpp"
#include "test_media.hpp"

namespace {

class CaseTest : public ::testing::Test {
 public:
  explicit CaseTest(vidpipe::test::HostileCase c) : case_(std::move(c)) {}
  void TestBody() override { vidpipe::test::run_case(case_); }

 private:
  vidpipe::test::HostileCase case_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::vector<vidpipe::test::HostileCase> cases;
  try {
    cases = vidpipe::test::load_cases(vidpipe::test::source_dir() + "/tests/hostile");
  } catch (const std::exception& e) {
    std::cerr << "hostile cases: " << e.what() << "\n";
    return 1;
  }
  for (const auto& c : cases)
    ::testing::RegisterTest(c.suite.c_str(), c.name.c_str(), nullptr, nullptr, c.file.c_str(), 0,
                            [c]() -> ::testing::Test* { return new CaseTest(c); });
  return RUN_ALL_TESTS();
}
