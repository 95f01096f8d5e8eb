// metrics.listen: serves a run's figures over HTTP while it goes on, so a fleet of
// long-running camera pipelines can be scraped and graphed. /metrics is Prometheus's text
// exposition format, /report the JSON report so far; both are made from one snapshot of
// the report, taken when a request comes (nothing is computed while nobody asks).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "metrics/control_api.hpp"
#include "metrics/metrics_config.hpp"

namespace httplib {
class Server;
}

namespace vidpipe {

class MetricsServer {
 public:
  // Called on the server's threads: must be safe beside the running pipeline.
  using Snapshot = std::function<nlohmann::json()>;

  // Binds and answers at once (503 until a snapshot is published), so that a port already
  // taken is a ConfigError naming metrics.listen before any input or output is opened.
  // `control` (may be null: POST and DELETE answer 405) takes the mutating calls.
  explicit MetricsServer(const ListenAddress& address, std::shared_ptr<ControlApi> control = nullptr);
  // Stops serving and joins its thread; a client that still holds a worker a few seconds
  // later (a slowloris) is left to the process's end rather than holding the run.
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;
  int port() const { return port_; }

  // While a Publication lives, requests are answered from its snapshot; its end waits for
  // a request in progress, so the snapshot may refer to what outlives the Publication.
  class Publication {
   public:
    explicit Publication(MetricsServer* server) : server_(server) {}
    ~Publication();
    Publication(const Publication&) = delete;
    Publication& operator=(const Publication&) = delete;

   private:
    MetricsServer* server_;
  };
  [[nodiscard]] std::unique_ptr<Publication> publish(Snapshot snapshot);

 private:
  // What the server's threads use, shared with them: a worker still serving a slow client
  // after the run gave up waiting for it finds it alive.
  struct Shared {
    std::mutex snapshot_mutex;
    Snapshot snapshot;  // nullptr before one is published and after it is withdrawn
    std::atomic<bool> listen_ended{false};
    std::shared_ptr<ControlApi> control;  // set before the server listens
    // The snapshot, or nullptr before one is published and after it is withdrawn.
    nlohmann::json take_snapshot(bool& available);
  };
  void route();
  void route_control();

  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace vidpipe
