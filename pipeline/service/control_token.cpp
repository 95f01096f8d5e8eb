#include "service/control_token.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/errors.hpp"

namespace vidpipe {
namespace {

// A Secret mounted as a file, or `echo token > file`, ends in a newline that is not part of it.
std::string trimmed(std::string text) {
  const auto blank = [](char c) { return c == '\n' || c == '\r' || c == ' ' || c == '\t'; };
  while (!text.empty() && blank(text.back())) text.pop_back();
  std::size_t first = 0;
  while (first < text.size() && blank(text[first])) ++first;
  return text.substr(first);
}

}  // namespace

ControlToken ControlToken::load(const ControlConfig& control) {
  ControlToken token;
  if (!control.token_file.empty()) {
    std::ifstream file(control.token_file, std::ios::binary);
    if (!file)
      throw ConfigError(fmt::format("control.token_file: cannot read '{}': {}", control.token_file, std::strerror(errno)));
    std::ostringstream text;
    text << file.rdbuf();
    token.token_ = trimmed(text.str());
    if (token.token_.empty()) throw ConfigError(fmt::format("control.token_file: '{}' holds no token", control.token_file));
    return token;
  }
  if (const char* from_environment = std::getenv("VIDPIPE_CONTROL_TOKEN")) token.token_ = trimmed(from_environment);
  return token;
}

bool ControlToken::accepts(const std::string& authorization) const {
  constexpr std::string_view scheme = "Bearer ";
  if (token_.empty() || authorization.size() != scheme.size() + token_.size() ||
      authorization.compare(0, scheme.size(), scheme) != 0)
    return false;
  // Every byte compared whatever the first difference, so the time taken tells nothing of
  // how much of a guess was right.
  unsigned char difference = 0;
  for (std::size_t i = 0; i < token_.size(); ++i)
    difference |= static_cast<unsigned char>(authorization[scheme.size() + i] ^ token_[i]);
  return difference == 0;
}

}  // namespace vidpipe
