// vidpipe: read the command, run it, map errors to exit codes (README "Exit codes").
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <iostream>

#include "cli.hpp"
#include "cli_errors.hpp"
#include "exit_codes.hpp"
#include "logging.hpp"

namespace {

std::atomic<bool> stop_requested{false};

extern "C" void on_signal(int) {
  // A second Ctrl-C means "now": fall back to the default handler.
  if (stop_requested.exchange(true)) std::_Exit(130);
}

void handle_signals() {
  // Every signal that ends a process finalises as Ctrl-C does: HUP too (the terminal or the
  // ssh session closing), which killed the run with only a .part left.
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) std::signal(s, on_signal);
  // `vidpipe run ... | head` closes the pipe early: the run must still finish its output and
  // report, so a write to a closed stdout/stderr fails quietly instead of killing it.
  std::signal(SIGPIPE, SIG_IGN);
  // A file-size limit (ulimit -f, a quota) must read as a write error the sink reports and
  // cleans up after, not a signal that kills the run with a half-written file.
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace

int main(int argc, char** argv) {
  vidpipe::CommandLine cli;
  vidpipe::define_commands(cli);
  try {
    cli.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return cli.app.exit(e);  // --help, --version
    // Like every other configuration error: one line, exit 2.
    std::cerr << "vidpipe: " << vidpipe::describe_cli_error(cli.app, e, argc, argv) << "\n";
    return 2;
  }
  vidpipe::set_up_logging(cli.verbose, cli.quiet);
  handle_signals();
  try {
    return vidpipe::dispatch(cli, &stop_requested);
  } catch (...) {
    return vidpipe::exit_code_for_current_exception();
  }
}
