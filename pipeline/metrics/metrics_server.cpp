#include "metrics/metrics_server.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>

#include "base/errors.hpp"
#include "metrics/prometheus_text.hpp"

namespace vidpipe {
namespace {

// Scrapes are rare (seconds apart) and each one is cheap, but an idle or slow client holds
// a thread until its read times out: eight threads, fewer than httplib's one per core (which
// a camera server would rather keep), and short timeouts keep scrapes answered beside a few
// such clients (5 idle connections starved the two threads there were).
constexpr std::size_t answer_threads = 8;
constexpr time_t client_timeout_s = 2;
// A scrape has no body: a large one (300 MB was buffered whole) is refused with 413.
constexpr std::size_t max_request_body = 64 * 1024;

void not_yet(httplib::Response& response) {
  response.status = 503;
  response.set_content("vidpipe: the run is starting or has ended\n", "text/plain");
}

}  // namespace

MetricsServer::MetricsServer(const ListenAddress& address) : server_(std::make_unique<httplib::Server>()) {
  server_->new_task_queue = [] { return new httplib::ThreadPool(answer_threads); };
  server_->set_payload_max_length(max_request_body);
  server_->set_read_timeout(client_timeout_s, 0);
  server_->set_write_timeout(client_timeout_s, 0);
  server_->set_keep_alive_timeout(client_timeout_s);
  route();
  errno = 0;
  port_ = address.port == 0 ? server_->bind_to_any_port(address.host)
                            : (server_->bind_to_port(address.host, address.port) ? address.port : -1);
  if (port_ < 0)
    throw ConfigError(fmt::format("metrics.listen: cannot listen on {}:{}{}", address.host, address.port,
                                  errno ? std::string(": ") + std::strerror(errno) : std::string()));
  thread_ = std::thread([this] {
    server_->listen_after_bind();
    listen_ended_ = true;
  });
  // httplib's stop() does nothing before the loop runs: a run that ends at once must not
  // leave the thread listening forever.
  while (!server_->is_running() && !listen_ended_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  spdlog::info("metrics: serving http://{}:{}/metrics and /report", address.host, port_);
}

MetricsServer::~MetricsServer() {
  server_->stop();
  thread_.join();
}

std::unique_ptr<MetricsServer::Publication> MetricsServer::publish(Snapshot snapshot) {
  std::lock_guard lock(snapshot_mutex_);
  snapshot_ = std::move(snapshot);
  return std::make_unique<Publication>(this);
}

MetricsServer::Publication::~Publication() {
  std::lock_guard lock(server_->snapshot_mutex_);
  server_->snapshot_ = nullptr;
}

// Held under the lock for the whole snapshot: a Publication's end waits for it.
nlohmann::json MetricsServer::take_snapshot(bool& available) {
  std::lock_guard lock(snapshot_mutex_);
  available = static_cast<bool>(snapshot_);
  return available ? snapshot_() : nlohmann::json();
}

void MetricsServer::route() {
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    bool available = false;
    const nlohmann::json report = take_snapshot(available);
    if (!available) return not_yet(response);
    response.set_content(prometheus_text(report), "text/plain; version=0.0.4; charset=utf-8");
  });
  server_->Get("/report", [this](const httplib::Request&, httplib::Response& response) {
    bool available = false;
    const nlohmann::json report = take_snapshot(available);
    if (!available) return not_yet(response);
    response.set_content(report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                         "application/json");
  });
  server_->Get("/", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("vidpipe: /metrics (Prometheus), /report (JSON)\n", "text/plain");
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

}  // namespace vidpipe
