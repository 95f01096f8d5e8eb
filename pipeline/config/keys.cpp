#include <cstdio>

#include "config/keys.hpp"

namespace vidpipe::keys_detail {

std::string describe(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a section";
  return "nothing";
}

std::string range_text(std::int64_t lo, std::int64_t hi) {
  if (hi == std::numeric_limits<int>::max() || hi == std::numeric_limits<std::int64_t>::max())
    return std::to_string(lo) + " or more";
  return std::to_string(lo) + ".." + std::to_string(hi);
}

std::string real_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace vidpipe::keys_detail
