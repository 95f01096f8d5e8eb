#include "base/redact.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace vidpipe {
namespace {

constexpr std::string_view hidden = "***";

bool secret_parameter(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  constexpr std::array<std::string_view, 9> secret_words = {"pass", "pwd", "token", "key", "secret",
                                                            "auth", "sig", "credential", "session"};
  return std::any_of(secret_words.begin(), secret_words.end(),
                     [&](std::string_view word) { return lower.find(word) != std::string::npos; });
}

// scheme://user:password@host...: the password goes, the user stays (it says which account).
std::string without_password(std::string_view uri) {
  const std::size_t scheme_end = uri.find("://");
  // user:password@host with the scheme forgotten: still a password to hide.
  const std::size_t authority = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  if (authority == 0 && uri.find('/') < uri.find('@')) return std::string(uri);
  const std::size_t authority_end = std::min(uri.find_first_of("/?#", authority), uri.size());
  const std::size_t at = uri.rfind('@', authority_end == 0 ? 0 : authority_end - 1);
  if (at == std::string_view::npos || at < authority) return std::string(uri);
  const std::size_t colon = uri.find(':', authority);
  if (colon == std::string_view::npos || colon > at) return std::string(uri);
  return std::string(uri.substr(0, colon + 1)).append(hidden).append(uri.substr(at));
}

std::string without_secret_parameters(const std::string& uri) {
  const std::size_t query = uri.find('?');
  if (query == std::string::npos || uri.find("://") == std::string::npos) return uri;
  std::string out = uri.substr(0, query + 1);
  std::size_t at = query + 1;
  while (at <= uri.size()) {
    const std::size_t end = std::min(uri.find_first_of("&#", at), uri.size());
    const std::string_view pair = std::string_view(uri).substr(at, end - at);
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && secret_parameter(pair.substr(0, eq)))
      out.append(pair.substr(0, eq + 1)).append(hidden);
    else
      out.append(pair);
    if (end >= uri.size()) break;
    out += uri[end];
    if (uri[end] == '#') return out + uri.substr(end + 1);
    at = end + 1;
  }
  return out;
}

}  // namespace

std::string redacted_uri(std::string_view uri) { return without_secret_parameters(without_password(uri)); }

std::string redacted_text(std::string_view text) {
  std::string out;
  std::size_t done = 0;
  for (std::size_t mark = text.find("://"); mark != std::string_view::npos; mark = text.find("://", done)) {
    std::size_t start = mark;
    while (start > done && std::isalpha(static_cast<unsigned char>(text[start - 1]))) --start;
    const std::size_t end = std::min(text.find_first_of(" \t\n'\"<>", mark), text.size());
    out.append(text.substr(done, start - done)).append(redacted_uri(text.substr(start, end - start)));
    done = end;
  }
  return out.append(text.substr(done));
}

}  // namespace vidpipe
