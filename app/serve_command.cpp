// `vidpipe serve` (or `run` with input.keep_running): the configured inputs, each as a
// pipeline of its own, and more added or removed over metrics.listen until SIGTERM or
// SIGINT (service/input_service.hpp). Ends with every output finalised and the service's
// report, exit 0: being told to stop is how a service ends.
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "base/errors.hpp"
#include "commands.hpp"
#include "config/config.hpp"
#include "metrics/metrics_server.hpp"
#include "metrics/report.hpp"
#include "service/input_service.hpp"
#include "service/state_file.hpp"
#include "version.hpp"

namespace vidpipe {
namespace {

std::string host_name() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string();
}

// The configured inputs this process takes, by their index in the list (their id: the same
// in every shard): `inputs`, or input.uri where it was set (the default clip is not an input
// of a service), of which control.shard's share.
std::vector<std::pair<std::size_t, std::string>> configured_inputs(const Config& c) {
  std::vector<std::string> uris;
  if (!c.inputs.empty() || c.origin.count("input.uri")) uris = input_uris(c);
  std::vector<std::pair<std::size_t, std::string>> mine;
  if (c.control.shard.empty()) {
    for (std::size_t i = 0; i < uris.size(); ++i) mine.emplace_back(i, uris[i]);
    return mine;
  }
  Shard shard;
  try {
    shard = parse_shard(c.control.shard, host_name());
  } catch (const std::string& why) {
    throw ConfigError(config_error(c, "control.shard", why));
  }
  for (std::size_t i = 0; i < uris.size(); ++i)
    if (static_cast<int>(i % shard.count) == shard.index) mine.emplace_back(i, uris[i]);
  spdlog::info("control.shard {}/{}: {} of the {} configured inputs", shard.index, shard.count, mine.size(), uris.size());
  return mine;
}

// Started without waiting: 64 cameras that do not answer must not hold the service for
// 64 x InputService::start_wait_s (serve() waits for them all at once).
void add_at_start(InputService& service, const std::string& id, const std::string& uri, bool kept) {
  const ControlApi::Answer answer = service.add(id, uri, kept, 0);
  if (answer.status >= 400) spdlog::warn("input {}: not started: {}", id, answer.body.value("error", ""));
}

void print_summary(const nlohmann::json& report, std::ostream& out) {
  for (const nlohmann::json& input : report["inputs"]) {
    out << fmt::format("input {}: {}, {} frames written", input.value("id", "?"), input.value("state", "?"),
                       input.value("frames_written", nlohmann::json(0)).is_number() ? input["frames_written"].get<long>() : 0L);
    if (input["output"].is_string()) out << " -> " << input["output"].get<std::string>();
    if (input.contains("error")) out << " (" << input["error"].get<std::string>() << ")";
    out << "\n";
  }
}

}  // namespace

int serve(Config config, const RunArgs& args, const std::atomic<bool>* stop) {
  const auto started = std::chrono::system_clock::now();
  if (config.metrics.listen.empty()) {
    config.metrics.listen = "127.0.0.1:9400";
    spdlog::info("metrics.listen is empty: serving on {}", config.metrics.listen);
  }
  const auto configured = configured_inputs(config);
  const std::vector<KeptInput> kept = config.control.state_file.empty() ? std::vector<KeptInput>{}
                                                                         : load_kept_inputs(config.control.state_file);
  auto service = std::make_shared<InputService>(config, ControlToken::load(config.control), version_number());
  MetricsServer server(parse_listen(config.metrics.listen), service);
  auto publication = server.publish([service] { return service->report(); });
  for (const auto& [index, uri] : configured) add_at_start(*service, std::to_string(index), uri, false);
  for (const KeptInput& input : kept) add_at_start(*service, input.id, input.uri, true);
  service->wait_started(InputService::start_wait_s);
  if (!service->token_configured())
    spdlog::info("no control token (control.token_file or VIDPIPE_CONTROL_TOKEN): inputs cannot be added over HTTP");
  spdlog::info("serving: POST /inputs adds one, DELETE /inputs/<id> removes it; SIGTERM or Ctrl-C ends");
  while (!(stop && stop->load())) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  spdlog::info("stopping: finishing every input's output");
  service->stop_all();
  nlohmann::json report = service->report();
  report["environment"] = run_environment(started);
  publication.reset();
  std::ostream& summary = args.json ? std::cerr : std::cout;
  print_summary(report, summary);
  if (!config.metrics.report.empty()) {
    write_report(report, config.metrics.report);
    summary << "  report: " << config.metrics.report << "\n";
  }
  if (args.json) std::cout << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

int serve_command(const RunArgs& args, const std::atomic<bool>* stop) {
  Config config = load_checked_config(args, false);
  check_inputs_exist(config);
  config.input.keep_running = true;
  return serve(std::move(config), args, stop);
}

}  // namespace vidpipe
