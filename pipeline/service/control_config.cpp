#include "service/control_config.hpp"

#include <charconv>

#include "config/keys.hpp"

namespace vidpipe {
namespace {

int whole_number(std::string_view text, const std::string& what) {
  int value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0)
    throw what + " must be a whole number, got '" + std::string(text) + "'";
  return value;
}

}  // namespace

Shard parse_shard(const std::string& text, const std::string& hostname) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw "must be k/N (e.g. 0/4, or hostname/4), got '" + text + "'";
  Shard shard;
  shard.count = whole_number(std::string_view(text).substr(slash + 1), "N");
  if (shard.count < 1) throw std::string("N must be at least 1");
  const std::string index = text.substr(0, slash);
  if (index == "hostname") {
    const std::size_t dash = hostname.rfind('-');
    if (dash == std::string::npos)
      throw "hostname/" + std::to_string(shard.count) + ": the host's name '" + hostname +
          "' does not end in -<number> (a StatefulSet's pods do)";
    shard.index = whole_number(std::string_view(hostname).substr(dash + 1), "the number after the host name's last '-'");
  } else {
    shard.index = whole_number(index, "k");
  }
  if (shard.index >= shard.count)
    throw "k must be below N, got " + std::to_string(shard.index) + "/" + std::to_string(shard.count);
  return shard;
}

void declare_keys(Keys<ControlConfig>& k) {
  k.text("token_file", &ControlConfig::token_file, "path or empty",
         "the bearer token that `POST /inputs` and `DELETE /inputs/{id}` need (`Authorization: Bearer "
         "<token>`), read from this file (a Kubernetes Secret mounted as a file); empty: from the "
         "environment variable `VIDPIPE_CONTROL_TOKEN`. With neither, inputs cannot be changed over HTTP. "
         "The token is never logged nor put in the report.");
  k.text("state_file", &ControlConfig::state_file, "path or empty",
         "serving: the inputs added over HTTP are kept in this JSON file (mode 0600: their URLs may hold "
         "passwords) and added again when the process restarts, so a pod killed mid-run resumes them. "
         "Empty: inputs added over HTTP are gone with the process.");
  k.text("shard", &ControlConfig::shard, "k/N or empty",
         "serving: take only the configured inputs whose index mod N is k, so N processes (a "
         "Kubernetes StatefulSet's pods) share one input list. `hostname/N` takes k from the host's "
         "name (`vidpipe-2` is k = 2). Empty: every input.",
         [](const std::string& v) {
           if (!v.empty() && v.rfind("hostname/", 0) != 0) parse_shard(v, "");
         });
}

}  // namespace vidpipe
