// A serving process (`vidpipe serve`, or `input.keep_running`): inputs come and go while it
// runs, each as a pipeline of its own (run_pipeline on a thread of its own: its own reader,
// CUDA streams, slots and output), as DL Streamer's pipeline server runs an instance per
// request. Removing one stops only it, and its output is finalised as a stopped run's is.
// What the endpoint answers for them all is made here (service_report.hpp).
//
// Inputs of one `vidpipe run` share batches; inputs of a service do not (each pipeline
// batches its own frames): docs/DEPLOY.md says when to use which.
#pragma once
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "metrics/control_api.hpp"
#include "service/control_token.hpp"

namespace vidpipe {

class InputService : public ControlApi {
 public:
  // `base`: the config each input's pipeline runs with (its input.uri and outputs set per
  // input). Throws ConfigError for what no input could run with (a stream sink).
  InputService(Config base, ControlToken token, std::string program_version);
  ~InputService() override;  // stops every pipeline (stop_all)
  InputService(const InputService&) = delete;
  InputService& operator=(const InputService&) = delete;

  // Starts a pipeline for `uri` under `id` (empty: the next free number). `kept`: added over
  // HTTP, so written to control.state_file. Waits up to `wait_s` for its first report: 201
  // running, 202 still opening (a network source that is not there yet), 4xx refused (bad
  // id, id taken, the input or its outputs refused; the body's "error" says why).
  Answer add(const std::string& id, const std::string& uri, bool kept, double wait_s = start_wait_s);
  // Waits up to `seconds` in all for every pipeline to be past opening (the configured
  // inputs at the start, opened at once rather than one after another).
  void wait_started(double seconds) const;
  // Stops every pipeline, their outputs finalised; later calls to add are refused (503).
  void stop_all();
  // The whole service, as /report gives it (service_report.hpp).
  nlohmann::json report() const;

  // ControlApi, for metrics.listen's mutating calls.
  bool token_configured() const override { return token_.configured(); }
  bool authorised(const std::string& authorization) const override { return token_.accepts(authorization); }
  Answer add_input(const std::string& body) override;
  Answer remove_input(const std::string& id) override;

  static constexpr double start_wait_s = 5.0;
  // Each input costs a reader, a GPU stage and an output: past this many, POST gets 429.
  static constexpr std::size_t max_inputs = 256;

 private:
  class Pipeline;
  Config instance_config(const std::string& id, const std::string& uri) const;
  std::string next_free_id() const;  // under mutex_
  void keep_state() const;           // under mutex_

  const Config base_;
  const ControlToken token_;
  const std::string program_version_;
  mutable std::mutex mutex_;  // guards pipelines_, order_, closed_
  std::map<std::string, std::shared_ptr<Pipeline>> pipelines_;
  std::vector<std::string> order_;  // ids in the order they were added
  bool closed_ = false;
};

}  // namespace vidpipe
