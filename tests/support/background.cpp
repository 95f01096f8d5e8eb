#include "background.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace vidpipe::test {

Background::Background(const std::string& command, const std::string& log) {
  pid_ = fork();
  if (pid_ == 0) {
    setpgid(0, 0);  // its own group: kill_now() takes the shell's children too
    const std::string line = "exec > '" + log + "' 2>&1; " + command;
    execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
}

Background::~Background() { kill_now(); }

std::optional<int> Background::wait(std::chrono::milliseconds timeout) {
  if (status_ || pid_ <= 0) return status_;
  const auto until = std::chrono::steady_clock::now() + timeout;
  do {
    int raw = 0;
    if (waitpid(pid_, &raw, WNOHANG) == pid_) {
      status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
      return status_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < until);
  return std::nullopt;
}

void Background::send(int signal) {
  if (pid_ > 0 && !status_) ::kill(pid_, signal);
}

void Background::kill_now() {
  if (pid_ <= 0 || status_) return;
  ::kill(-pid_, SIGKILL);
  int raw = 0;
  waitpid(pid_, &raw, 0);
  status_ = 128 + SIGKILL;
}

int test_port(int offset) { return 20000 + static_cast<int>(getpid() % 2000) * 10 + offset; }

void poll_pause() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

namespace {

// A socket table of /proc/net whose line has the local port and, where given, the state.
bool socket_in_table(const char* table, int port, const char* state_wanted) {
  std::ifstream in(table);
  std::string line;
  std::getline(in, line);  // header
  char hex[8];
  std::snprintf(hex, sizeof hex, "%04X", port);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state;
    fields >> slot >> local >> remote >> state;
    if ((!state_wanted || state == state_wanted) && local.size() > 4 && local.substr(local.size() - 4) == hex)
      return true;
  }
  return false;
}

}  // namespace

bool tcp_listening(int port) { return socket_in_table("/proc/net/tcp", port, "0A"); }

bool udp_bound(int port) { return socket_in_table("/proc/net/udp", port, nullptr); }

}  // namespace vidpipe::test
