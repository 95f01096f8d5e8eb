// How a component declares its configuration keys, once: Holoscan's setup(OperatorSpec&)
// in C++ terms. Each component's options struct holds the defaults (its member
// initialisers); a `declare_keys(Keys<Options>&)` function beside it names each key, binds
// it to a member and gives its range and doc. The loader, the report's resolved config
// and config/README.md all read that one declaration.
#pragma once
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace vidpipe {

struct Config;

// The words an enum is written as in YAML, in the order the docs list them.
template <class E>
using EnumNames = std::vector<std::pair<std::string, E>>;

template <class E>
std::string name_of(const EnumNames<E>& names, E value) {
  for (const auto& [name, v] : names)
    if (v == value) return name;
  return "?";
}

// One key, type-erased over the Config.
struct KeySpec {
  std::string path;    // dotted, e.g. "copy.streams"
  std::string values;  // what it takes, for the docs: "1..32", "`sync`, `async`", "bool"
  std::string doc;
  std::function<void(Config&, const YAML::Node&)> set;  // throws std::string on a bad value
  std::function<nlohmann::json(const Config&)> get;
};

namespace keys_detail {
std::string describe(const YAML::Node& n);
std::string range_text(std::int64_t lo, std::int64_t hi);
std::string real_text(double v);

template <class T>
T scalar_as(const YAML::Node& n, const char* what) {
  if (!n.IsScalar()) throw std::string("expected ") + what + ", got " + describe(n);
  try {
    return n.as<T>();
  } catch (const YAML::Exception&) {
    throw std::string("expected ") + what + ", got " + describe(n);
  }
}
}  // namespace keys_detail

// Every key of the Config, in declaration order (config.cpp).
const std::vector<KeySpec>& declared_keys();

// Declares the keys of one section `S` of the Config, found at `prefix`.
template <class S>
class Keys {
 public:
  using Access = std::function<S&(Config&)>;
  using ConstAccess = std::function<const S&(const Config&)>;

  Keys(std::vector<KeySpec>& out, std::string prefix, Access access, ConstAccess read)
      : out_(out), prefix_(std::move(prefix)), access_(std::move(access)), read_(std::move(read)) {}

  template <class Sub>
  Keys<Sub> section(const std::string& name, Sub S::*member) {
    auto access = access_;
    auto read = read_;
    return Keys<Sub>(out_, path(name), [access, member](Config& c) -> Sub& { return access(c).*member; },
                     [read, member](const Config& c) -> const Sub& { return read(c).*member; });
  }

  template <class T>
  void integer(const std::string& name, T S::*field, std::int64_t lo, std::int64_t hi, std::string doc) {
    add(name, keys_detail::range_text(lo, hi), std::move(doc), field, [=](const YAML::Node& n) {
      const auto v = keys_detail::scalar_as<std::int64_t>(n, "an integer");
      if (v < lo || v > hi)
        throw "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " + std::to_string(v);
      return static_cast<T>(v);
    });
  }

  void real(const std::string& name, double S::*field, double lo, double hi, std::string doc) {
    add(name, keys_detail::real_text(lo) + ".." + keys_detail::real_text(hi), std::move(doc), field,
        [=](const YAML::Node& n) {
          const auto v = keys_detail::scalar_as<double>(n, "a number");
          if (!(v >= lo && v <= hi))
            throw "must be between " + keys_detail::real_text(lo) + " and " + keys_detail::real_text(hi) + ", got " +
                n.Scalar();
          return v;
        });
  }

  void boolean(const std::string& name, bool S::*field, std::string doc) {
    add(name, "bool", std::move(doc), field,
        [](const YAML::Node& n) { return keys_detail::scalar_as<bool>(n, "true or false"); });
  }

  // `values` says what the string is (a path, a URL, an encoder name) for the docs.
  void text(const std::string& name, std::string S::*field, std::string values, std::string doc) {
    // An empty value (`key:` or --set key=) reads as null: for a string it is "".
    add(name, std::move(values), std::move(doc), field, [](const YAML::Node& n) {
      return n.IsNull() ? std::string() : keys_detail::scalar_as<std::string>(n, "a string");
    });
  }

  // As above, with `check` throwing a std::string that says what is wrong with the value.
  template <class Check>
  void text(const std::string& name, std::string S::*field, std::string values, std::string doc, Check check) {
    add(name, std::move(values), std::move(doc), field, [check](const YAML::Node& n) {
      std::string v = n.IsNull() ? std::string() : keys_detail::scalar_as<std::string>(n, "a string");
      check(v);
      return v;
    });
  }

  template <class E>
  void choice(const std::string& name, E S::*field, const EnumNames<E>& names, std::string doc) {
    std::string list, quoted;
    for (const auto& [word, value] : names) {
      list += (list.empty() ? "" : " | ") + word;
      quoted += (quoted.empty() ? "`" : ", `") + word + "`";
    }
    auto parse = [names, list](const YAML::Node& n) {
      // YAML reads a bare `null` as no value; for a choice it is the word.
      const auto v = n.IsNull() ? std::string("null") : keys_detail::scalar_as<std::string>(n, "a string");
      for (const auto& [word, value] : names)
        if (word == v) return value;
      throw "must be one of " + list + ", got '" + v + "'";
    };
    auto read = read_;
    out_.push_back({path(name), quoted, std::move(doc),
                    [access = access_, field, parse](Config& c, const YAML::Node& n) { access(c).*field = parse(n); },
                    [read, field, names](const Config& c) -> nlohmann::json { return name_of(names, read(c).*field); }});
  }

  void int_list(const std::string& name, std::vector<int> S::*field, int lo, int hi, std::string doc) {
    add(name, "list of " + keys_detail::range_text(lo, hi), std::move(doc), field, [=](const YAML::Node& n) {
      if (!n.IsSequence() || n.size() == 0) throw "expected a list of integers, got " + keys_detail::describe(n);
      std::vector<int> v;
      for (std::size_t i = 0; i < n.size(); ++i) {
        const auto x = keys_detail::scalar_as<std::int64_t>(n[i], "an integer");
        if (x < lo || x > hi)
          throw "every entry must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
              std::to_string(x);
        v.push_back(static_cast<int>(x));
      }
      return v;
    });
  }

  void text_list(const std::string& name, std::vector<std::string> S::*field, std::string values, std::string doc) {
    add(name, std::move(values), std::move(doc), field, [](const YAML::Node& n) {
      // Empty is the default (a report's config and config-doc --yaml write it so).
      if (!n.IsSequence()) throw "expected a list of strings, got " + keys_detail::describe(n);
      std::vector<std::string> v;
      for (std::size_t i = 0; i < n.size(); ++i) v.push_back(keys_detail::scalar_as<std::string>(n[i], "a string"));
      return v;
    });
  }

  // A key of a type of its own: `parse` reads it from YAML (throwing a std::string that says
  // what is wrong) and the type's to_json writes it back in a form `parse` reads.
  template <class T, class Parse>
  void parsed(const std::string& name, T S::*field, std::string values, std::string doc, Parse parse) {
    add(name, std::move(values), std::move(doc), field, std::move(parse));
  }

  void triple(const std::string& name, std::array<double, 3> S::*field, std::string doc) {
    add(name, "3 numbers", std::move(doc), field, [](const YAML::Node& n) {
      if (!n.IsSequence() || n.size() != 3) throw "expected a list of 3 numbers, got " + keys_detail::describe(n);
      std::array<double, 3> v{};
      for (std::size_t i = 0; i < 3; ++i) v[i] = keys_detail::scalar_as<double>(n[i], "a number");
      return v;
    });
  }

 private:
  std::string path(const std::string& name) const { return prefix_.empty() ? name : prefix_ + "." + name; }

  template <class T, class Parse>
  void add(const std::string& name, std::string values, std::string doc, T S::*field, Parse parse) {
    auto read = read_;
    out_.push_back({path(name), std::move(values), std::move(doc),
                    [access = access_, field, parse](Config& c, const YAML::Node& n) { access(c).*field = parse(n); },
                    [read, field](const Config& c) -> nlohmann::json { return read(c).*field; }});
  }

  std::vector<KeySpec>& out_;
  std::string prefix_;
  Access access_;
  ConstAccess read_;
};

}  // namespace vidpipe
