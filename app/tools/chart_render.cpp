#include "tools/chart_render.hpp"

#include <spdlog/spdlog.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "base/errors.hpp"
#include "config/data_files.hpp"

extern char** environ;

namespace vidpipe {
namespace {

// $VIDPIPE_PYTHON, else Debian's own python3 (where python3-matplotlib installs, even when
// a pyenv or venv python3 comes first on PATH), else whatever python3 PATH finds.
std::string python_interpreter() {
  if (const char* chosen = std::getenv("VIDPIPE_PYTHON"); chosen && *chosen) return chosen;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// The script's exit status, or 127 when the interpreter could not be started.
int run_script(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return 127;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The chart's input beside nothing the user asked for: removed when the chart is drawn.
class TemporaryJson {
 public:
  explicit TemporaryJson(const nlohmann::json& data) {
    std::string pattern = (std::filesystem::temp_directory_path() / "vidpipe-chart-XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd < 0) throw OutputError("cannot create a temporary file for the chart in " + pattern);
    close(fd);
    path_ = pattern;
    std::ofstream out(path_);
    out << data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out.flush();
    if (!out) {
      std::filesystem::remove(path_);
      throw OutputError("cannot write the chart's data to " + path_ + " (is the temporary folder full?)");
    }
  }
  ~TemporaryJson() { std::filesystem::remove(path_); }
  TemporaryJson(const TemporaryJson&) = delete;
  TemporaryJson& operator=(const TemporaryJson&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string why_not(int status, const std::string& python) {
  if (status == 127) return "no " + python + " to run the chart script";
  if (status == 3) return python + " has no matplotlib (Debian: apt-get install python3-matplotlib)";
  return "the chart script failed (exit " + std::to_string(status) + ", its message is above)";
}

}  // namespace

bool render_chart(const std::string& kind, const nlohmann::json& data, const std::string& png,
                  const std::string& json_path, std::ostream& said) {
  const std::string script = find_data_file("app/tools/charts.py");
  const std::string python = python_interpreter();
  const bool installed = std::filesystem::exists(script);
  int status = 127;
  if (installed) {
    const TemporaryJson input(data);
    status = run_script({python, script, kind, input.path(), png});
  }
  if (status == 0) {
    said << "chart: " << png << "\n";
    return true;
  }
  const std::string reason = installed ? why_not(status, python) : "the chart script " + script + " is not installed";
  spdlog::warn("no chart: {}; {}", reason,
               json_path.empty() ? "the table above holds the figures" : "the figures are in " + json_path);
  return false;
}

}  // namespace vidpipe
