// A shell command running beside the test (a stream sender, Xvfb, vidpipe itself);
// the destructor kills what is still running, so a failed assertion leaves nothing.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

namespace vidpipe::test {

class Background {
 public:
  // `log`: where its stdout and stderr go.
  Background(const std::string& command, const std::string& log);
  ~Background();
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  // Exit status once it has ended within `timeout`, else nullopt (still running).
  std::optional<int> wait(std::chrono::milliseconds timeout);
  void kill_now();
  // Sends `signal` to the shell, which is the program itself where the command starts with
  // `exec`.
  void send(int signal);

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// The pause between two polls of wait_until (20 ms).
void poll_pause();

// A port for this test process, different for each `offset` and each process.
int test_port(int offset);
// Whether something listens on 127.0.0.1:port over TCP (read from /proc/net/tcp).
bool tcp_listening(int port);
// Whether a UDP socket is bound to the port (read from /proc/net/udp).
bool udp_bound(int port);

// Polls `condition` until it holds or `timeout` passes; returns whether it held. Tests
// wait for what they need rather than sleep a fixed time.
template <class Condition>
bool wait_until(Condition condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    poll_pause();
  }
  return true;
}

}  // namespace vidpipe::test
