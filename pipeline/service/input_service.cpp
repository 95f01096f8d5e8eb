#include "service/input_service.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <regex>
#include <thread>

#include "base/errors.hpp"
#include "base/redact.hpp"
#include "config/output_guard.hpp"
#include "run/pipeline.hpp"
#include "service/service_report.hpp"
#include "service/state_file.hpp"

namespace vidpipe {

// One input's pipeline on a thread of its own; shows its live report to the service.
class InputService::Pipeline : public LiveReportBoard {
 public:
  Pipeline(std::string id, std::string uri, Config config, bool kept)
      : id_(std::move(id)), uri_(std::move(uri)), config_(std::move(config)), kept_(kept) {}
  ~Pipeline() override {
    stop();
    join();
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void start(const std::string& program_version) {
    thread_ = std::thread([this, program_version] { run(program_version); });
  }
  void stop() { stop_ = true; }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  // The state once it is past "starting", or "starting" after `seconds`.
  std::string wait_started(double seconds) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return state_ != "starting"; });
    return state_;
  }
  PipelineView view() const {
    std::lock_guard lock(mutex_);
    const bool writes_file = config_.sink.kind == SinkKind::encode;
    return {id_, uri_, state_, writes_file ? config_.sink.path : "", error_, live_ ? live_() : final_report_};
  }
  const std::string& id() const { return id_; }
  const std::string& uri() const { return uri_; }
  const Config& config() const { return config_; }
  bool kept() const { return kept_; }

  void show(std::function<nlohmann::json()> snapshot) override {
    {
      std::lock_guard lock(mutex_);
      live_ = std::move(snapshot);
      state_ = "running";
    }
    changed_.notify_all();
  }
  void withdraw() override {
    std::lock_guard lock(mutex_);  // held by a snapshot in progress: this waits for it
    // Its last figures stand in for the final report until the teardown (outputs finalised)
    // is over: a scrape then never finds the input without its series.
    if (live_) final_report_ = live_();
    live_ = nullptr;
  }

 private:
  void run(const std::string& program_version) {
    std::string state, error;
    nlohmann::json report;
    try {
      RunResult result = run_pipeline(config_, &stop_, program_version, this);
      report = std::move(result.report);
      state = result.error ? "failed" : stop_ ? "stopped" : "ended";
      if (result.error) error = report.value("error", "");
    } catch (const std::exception& e) {
      // Removed (or the service stopped) while it was still opening: what was asked for.
      state = stop_ ? "stopped" : "failed";
      if (!stop_) error = e.what();
    }
    if (!error.empty()) spdlog::warn("input {}: {}", id_, redacted_text(error));
    {
      std::lock_guard lock(mutex_);
      final_report_ = std::move(report);
      state_ = state;
      error_ = error;
    }
    changed_.notify_all();
  }

  const std::string id_, uri_;
  const Config config_;
  const bool kept_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  mutable std::mutex mutex_;  // guards what follows; held through a snapshot
  std::condition_variable changed_;
  std::function<nlohmann::json()> live_;
  std::string state_ = "starting", error_;
  nlohmann::json final_report_;
};

namespace {

using Answer = ControlApi::Answer;

Answer refused(int status, const std::string& why) { return {status, {{"error", why}}}; }

// Ids name output files (out-<id>.mp4): letters, digits, '_', '.', '-', not starting with '.'.
bool valid_id(const std::string& id) {
  static const std::regex pattern("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
  return std::regex_match(id, pattern);
}

// out.mp4 -> out-<id>.mp4, beside it.
std::string path_for_input(const std::string& path, const std::string& id) {
  if (path.empty()) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "-" + id + p.extension().string())).string();
}

// The first of `checks` that throws, as a refusal (422: the request was understood).
template <class Check>
std::optional<Answer> refusal_from(Check&& check) {
  try {
    check();
  } catch (const std::exception& e) {
    return refused(422, redacted_text(e.what()));
  }
  return std::nullopt;
}

}  // namespace

InputService::InputService(Config base, ControlToken token, std::string program_version)
    : base_(std::move(base)), token_(std::move(token)), program_version_(std::move(program_version)) {
  if (base_.sink.kind == SinkKind::stream)
    throw ConfigError(config_error(base_, "sink.kind",
                                   "stream: a serving process's inputs cannot share one stream address; use encode "
                                   "(a file per input) or null"));
}

InputService::~InputService() { stop_all(); }

Config InputService::instance_config(const std::string& id, const std::string& uri) const {
  Config c = base_;
  c.inputs.clear();
  c.input.uri = uri;
  c.input.keep_running = false;
  c.origin["input.uri"] = "input " + id;
  // The service answers on metrics.listen and writes the report; one live line per input
  // would be many lines fighting for one terminal row.
  c.metrics.listen.clear();
  c.metrics.report.clear();
  c.metrics.live = false;
  if (c.sink.kind == SinkKind::encode) c.sink.path = path_for_input(c.sink.path, id);
  c.metrics.trace = path_for_input(c.metrics.trace, id);
  c.metrics.detections = path_for_input(c.metrics.detections, id);
  return c;
}

std::string InputService::next_free_id() const {
  for (std::size_t n = pipelines_.size();; ++n)
    if (!pipelines_.count(std::to_string(n))) return std::to_string(n);
}

Answer InputService::add(const std::string& wanted_id, const std::string& uri, bool kept, double wait_s) {
  std::shared_ptr<Pipeline> pipeline;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return refused(503, "the service is stopping");
    if (pipelines_.size() >= max_inputs)
      return refused(429, fmt::format("{} inputs already: remove one first", max_inputs));
    const std::string id = wanted_id.empty() ? next_free_id() : wanted_id;
    if (!valid_id(id))
      return refused(400, "id '" + id + "': use 1-64 letters, digits, '_', '.' or '-', not starting with '.' or '-'");
    if (pipelines_.count(id)) return refused(409, "id '" + id + "' is taken: remove it first or choose another");
    Config config = instance_config(id, uri);
    if (auto refusal = refusal_from([&] {
          check_inputs_exist(config);
          refuse_outputs_onto_inputs(config, false);
          check_output_places(config, false);
          // Nor its outputs onto another pipeline's input, nor theirs onto its input (out-a.mp4
          // of an earlier run given as an input while a writes it again). Each checked as a
          // one-input config: with several, the guard would name the outputs out-a-0.mp4, ...
          for (const auto& [other_id, other] : pipelines_) {
            Config mine = config, theirs = other->config();
            mine.input.uri = other->uri();
            theirs.input.uri = uri;
            refuse_outputs_onto_inputs(mine, false);
            refuse_outputs_onto_inputs(theirs, false);
          }
        }))
      return *refusal;
    pipeline = std::make_shared<Pipeline>(id, uri, std::move(config), kept);
    pipelines_[id] = pipeline;
    order_.push_back(id);
    if (kept) keep_state();
  }
  pipeline->start(program_version_);
  spdlog::info("input {} added: {}", pipeline->id(), redacted_uri(uri));
  const std::string state = pipeline->wait_started(wait_s);
  PipelineView view = pipeline->view();
  if (state == "failed") {
    remove_input(pipeline->id());
    return refused(422, redacted_text(view.error));
  }
  if (state == "stopped") return refused(409, "input " + pipeline->id() + " was removed while it started");
  const nlohmann::json line = service_report({view}, program_version_, false)["inputs"][0];
  return {state == "starting" ? 202 : 201, line};
}

Answer InputService::add_input(const std::string& body) {
  nlohmann::json request;
  try {
    request = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception& e) {
    return refused(400, std::string("the body is not JSON: ") + e.what());
  }
  if (!request.is_object() || !request.contains("uri") || !request["uri"].is_string() ||
      request["uri"].get<std::string>().empty())
    return refused(400, R"(the body must be {"uri": "...", "id": "..." (optional)})");
  for (const auto& [key, value] : request.items())
    if (key != "uri" && key != "id") return refused(400, "unknown key '" + key + "' (known: uri, id)");
  if (request.contains("id") && !request["id"].is_string()) return refused(400, "id must be a string");
  return add(request.value("id", ""), request["uri"].get<std::string>(), true);
}

Answer InputService::remove_input(const std::string& id) {
  std::shared_ptr<Pipeline> pipeline;
  {
    std::lock_guard lock(mutex_);
    const auto it = pipelines_.find(id);
    if (it == pipelines_.end()) return refused(404, "no input has the id '" + id + "'");
    pipeline = it->second;
    pipelines_.erase(it);
    order_.erase(std::find(order_.begin(), order_.end(), id));
    if (pipeline->kept()) keep_state();
  }
  // Outside the lock: finishing the output takes a moment, and other calls go on meanwhile.
  pipeline->stop();
  pipeline->join();
  spdlog::info("input {} removed", id);
  PipelineView view = pipeline->view();
  nlohmann::json line = service_report({view}, program_version_, true)["inputs"][0];
  return {200, line};
}

void InputService::wait_started(double seconds) const {
  std::vector<std::shared_ptr<Pipeline>> listed;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, pipeline] : pipelines_) listed.push_back(pipeline);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (const auto& pipeline : listed)
    pipeline->wait_started(std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count());
}

void InputService::stop_all() {
  std::vector<std::shared_ptr<Pipeline>> running;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    for (const auto& [id, pipeline] : pipelines_) running.push_back(pipeline);
  }
  for (const auto& pipeline : running) pipeline->stop();  // all at once: each finishes its output
  for (const auto& pipeline : running) pipeline->join();
}

nlohmann::json InputService::report() const {
  std::vector<std::shared_ptr<Pipeline>> listed;
  bool stopped = false;
  {
    std::lock_guard lock(mutex_);
    for (const std::string& id : order_) listed.push_back(pipelines_.at(id));
    stopped = closed_;
  }
  std::vector<PipelineView> views;
  for (const auto& pipeline : listed) views.push_back(pipeline->view());
  return service_report(views, program_version_, stopped);
}

void InputService::keep_state() const {
  if (base_.control.state_file.empty()) return;
  std::vector<KeptInput> kept;
  for (const std::string& id : order_)
    if (pipelines_.at(id)->kept()) kept.push_back({id, pipelines_.at(id)->uri()});
  try {
    save_kept_inputs(base_.control.state_file, kept);
  } catch (const std::exception& e) {
    spdlog::warn("{}", e.what());  // the inputs still run; only a restart would not resume them
  }
}

}  // namespace vidpipe
