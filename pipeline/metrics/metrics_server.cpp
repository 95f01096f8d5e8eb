#include "metrics/metrics_server.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>

#include "base/errors.hpp"
#include "metrics/health.hpp"
#include "metrics/prometheus_text.hpp"

namespace vidpipe {
namespace {

// Scrapes are rare (seconds apart) and each one is cheap, but an idle or slow client holds
// a thread until its read times out, and a slowloris client (a header byte every second)
// for as long as it likes: cpp-httplib has no deadline for a whole request. Threads that
// wait on a socket cost no CPU, so there are many (50 idle and 8 slowloris connections
// starved the 8 there were); short timeouts free the idle ones. A scraper on an untrusted
// network belongs behind a proxy that bounds a request's time (docs/RELIABILITY.md).
constexpr std::size_t answer_threads = 64;
constexpr time_t client_timeout_s = 2;
// How long the end of a run waits for the clients still being answered.
constexpr double slow_client_wait_s = 3;
// A scrape has no body: a large one (300 MB was buffered whole) is refused with 413.
constexpr std::size_t max_request_body = 64 * 1024;

void not_yet(httplib::Response& response) {
  response.status = 503;
  response.set_content("vidpipe: the run is starting or has ended\n", "text/plain");
}

void answer_json(httplib::Response& response, int status, const nlohmann::json& body) {
  response.status = status;
  response.set_content(body.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "application/json");
}

// Whether a mutating call may go on; when not, the response says why.
bool permitted(const std::shared_ptr<ControlApi>& control, const httplib::Request& request,
               httplib::Response& response) {
  if (!control) {
    answer_json(response, 405, {{"error", "this run does not take inputs over HTTP: start it with `vidpipe serve` or "
                                          "input.keep_running: true"}});
    return false;
  }
  if (!control->token_configured()) {
    answer_json(response, 403, {{"error", "no control token is configured (control.token_file or "
                                          "VIDPIPE_CONTROL_TOKEN): inputs cannot be changed over HTTP"}});
    return false;
  }
  if (!control->authorised(request.get_header_value("Authorization"))) {
    response.set_header("WWW-Authenticate", "Bearer");
    answer_json(response, 401, {{"error", "missing or wrong bearer token (Authorization: Bearer <token>)"}});
    return false;
  }
  return true;
}

}  // namespace

MetricsServer::MetricsServer(const ListenAddress& address, std::shared_ptr<ControlApi> control)
    : server_(std::make_unique<httplib::Server>()) {
  shared_->control = std::move(control);
  server_->new_task_queue = [] { return new httplib::ThreadPool(answer_threads); };
  server_->set_payload_max_length(max_request_body);
  server_->set_read_timeout(client_timeout_s, 0);
  server_->set_write_timeout(client_timeout_s, 0);
  server_->set_keep_alive_timeout(client_timeout_s);
  route();
  route_control();
  errno = 0;
  port_ = address.port == 0 ? server_->bind_to_any_port(address.host)
                            : (server_->bind_to_port(address.host, address.port) ? address.port : -1);
  if (port_ < 0)
    throw ConfigError(fmt::format("metrics.listen: cannot listen on {}:{}{}", address.host, address.port,
                                  errno ? std::string(": ") + std::strerror(errno) : std::string()));
  thread_ = std::thread([server = server_.get(), shared = shared_] {
    server->listen_after_bind();
    shared->listen_ended = true;
  });
  // httplib's stop() does nothing before the loop runs: a run that ends at once must not
  // leave the thread listening forever.
  while (!server_->is_running() && !shared_->listen_ended) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  spdlog::info("metrics: serving http://{}:{}/metrics and /report", address.host, port_);
}

MetricsServer::~MetricsServer() {
  server_->stop();
  // httplib's listen returns once every worker has finished its client, and a client that
  // sends a header line every second never finishes (httplib has no deadline for a request).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(slow_client_wait_s);
  while (!shared_->listen_ended && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (shared_->listen_ended) {
    thread_.join();
    return;
  }
  spdlog::warn("metrics: a client still holds a connection {:.0f} s after the run; not waiting for it",
               slow_client_wait_s);
  thread_.detach();
  // Its workers still use the server: it is left to the process's end, as they are.
  static_cast<void>(server_.release());
}

std::unique_ptr<MetricsServer::Publication> MetricsServer::publish(Snapshot snapshot) {
  std::lock_guard lock(shared_->snapshot_mutex);
  shared_->snapshot = std::move(snapshot);
  return std::make_unique<Publication>(this);
}

MetricsServer::Publication::~Publication() {
  std::lock_guard lock(server_->shared_->snapshot_mutex);
  server_->shared_->snapshot = nullptr;
}

// Held under the lock for the whole snapshot: a Publication's end waits for it.
nlohmann::json MetricsServer::Shared::take_snapshot(bool& available) {
  std::lock_guard lock(snapshot_mutex);
  available = static_cast<bool>(snapshot);
  return available ? snapshot() : nlohmann::json();
}

void MetricsServer::route() {
  server_->Get("/metrics", [shared = shared_](const httplib::Request&, httplib::Response& response) {
    bool available = false;
    const nlohmann::json report = shared->take_snapshot(available);
    if (!available) return not_yet(response);
    response.set_content(prometheus_text(report), "text/plain; version=0.0.4; charset=utf-8");
  });
  server_->Get("/report", [shared = shared_](const httplib::Request&, httplib::Response& response) {
    bool available = false;
    const nlohmann::json report = shared->take_snapshot(available);
    if (!available) return not_yet(response);
    response.set_content(report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                         "application/json");
  });
  // Liveness: the process answers (Kubernetes restarts a pod whose probe fails).
  server_->Get("/healthz", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("ok\n", "text/plain");
  });
  server_->Get("/readyz", [shared = shared_](const httplib::Request&, httplib::Response& response) {
    bool available = false;
    const nlohmann::json report = shared->take_snapshot(available);
    const Readiness r = available ? readiness_of(report) : Readiness{false, "the run is starting or has ended"};
    response.status = r.ready ? 200 : 503;
    response.set_content(nlohmann::json{{"ready", r.ready}, {"why", r.why}}.dump() + "\n", "application/json");
  });
  server_->Get("/inputs", [shared = shared_](const httplib::Request&, httplib::Response& response) {
    bool available = false;
    const nlohmann::json report = shared->take_snapshot(available);
    if (!available) return not_yet(response);
    response.set_content(inputs_of(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                         "application/json");
  });
  server_->Get("/", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("vidpipe: /metrics (Prometheus), /report (JSON), /inputs (JSON; serving: POST to add, "
                         "DELETE /inputs/{id} to remove, with a bearer token), /healthz, /readyz\n",
                         "text/plain");
  });
  // A snapshot that throws answers 500 with the reason rather than ending the process.
  server_->set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      response.set_content(std::string("vidpipe: ") + e.what() + "\n", "text/plain");
    }
    response.status = 500;
  });
}

// POST /inputs and DELETE /inputs/{id}: the token first, then the service.
void MetricsServer::route_control() {
  server_->Post("/inputs", [shared = shared_](const httplib::Request& request, httplib::Response& response) {
    if (!permitted(shared->control, request, response)) return;
    const ControlApi::Answer answer = shared->control->add_input(request.body);
    answer_json(response, answer.status, answer.body);
  });
  server_->Delete(R"(/inputs/([^/]+))", [shared = shared_](const httplib::Request& request, httplib::Response& response) {
    if (!permitted(shared->control, request, response)) return;
    const ControlApi::Answer answer = shared->control->remove_input(request.matches[1]);
    answer_json(response, answer.status, answer.body);
  });
}

}  // namespace vidpipe
