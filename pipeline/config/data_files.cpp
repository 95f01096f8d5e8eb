#include "config/data_files.hpp"

#include <cstdlib>
#include <system_error>

namespace vidpipe {
namespace {

std::filesystem::path executable_folder() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : exe.parent_path();
}

}  // namespace

std::vector<std::filesystem::path> data_roots() {
  std::vector<std::filesystem::path> roots;
  if (const char* data = std::getenv("VIDPIPE_DATA"); data && *data) roots.emplace_back(data);
  const std::filesystem::path exe = executable_folder();
  if (!exe.empty()) roots.push_back((exe / VIDPIPE_DATA_FROM_BINDIR).lexically_normal());
  // Only a binary still in its build folder reads the source tree: an installed one must not
  // lean on a checkout that happens to still be there.
  const std::string build_dir = VIDPIPE_BUILD_DIR;
  if (!exe.empty() && exe.string().rfind(build_dir, 0) == 0) roots.emplace_back(VIDPIPE_SOURCE_DIR);
  return roots;
}

std::string find_data_file(const std::string& path) {
  const std::filesystem::path given(path);
  std::error_code error;
  if (path.empty() || given.is_absolute() || std::filesystem::exists(given, error)) return path;
  for (const auto& root : data_roots())
    if (std::filesystem::exists(root / given, error)) return (root / given).string();
  return path;
}

}  // namespace vidpipe
