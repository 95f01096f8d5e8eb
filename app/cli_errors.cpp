#include "cli_errors.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "base/edit_distance.hpp"

namespace vidpipe {
namespace {

// The closest of `names` to `word`, if it is close enough to be a typo.
std::string nearest(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& name : names)
    if (const std::size_t d = edit_distance(word, name); d < best_distance) best = name, best_distance = d;
  return best;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

std::vector<std::string> long_options(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options())
    for (const std::string& name : o->get_lnames()) names.push_back("--" + name);
  return names;
}

bool known_option(const std::vector<std::string>& names, const std::string& word) {
  return std::find(names.begin(), names.end(), word) != names.end();
}

}  // namespace

std::string describe_cli_error(const CLI::App& app, const CLI::ParseError& error, int argc, const char* const* argv) {
  const std::vector<std::string> commands = subcommand_names(app);
  if (argc < 2) return "a command is required: one of " + fmt::format("{}", fmt::join(commands, ", ")) + " (--help)";
  const std::string command = argv[1];
  if (command[0] != '-' && !known_option(commands, command)) {
    const std::string guess = nearest(command, commands);
    return "unknown command '" + command + "'" + (guess.empty() ? "" : "; did you mean '" + guess + "'?") +
           " (vidpipe --help lists them)";
  }
  // An option the chosen command does not have: the closest it (or vidpipe itself) has.
  const CLI::App* sub = known_option(commands, command) ? app.get_subcommand(command) : &app;
  std::vector<std::string> options = long_options(*sub);
  for (const std::string& o : long_options(app)) options.push_back(o);
  for (int i = 2; i < argc; ++i) {
    const std::string word = std::string(argv[i]).substr(0, std::string(argv[i]).find('='));
    if (word.rfind("--", 0) != 0 || known_option(options, word)) continue;
    const std::string guess = nearest(word, options);
    return "unknown option '" + word + "' for '" + command + "'" +
           (guess.empty() ? "" : "; did you mean '" + guess + "'?") + " (vidpipe " + command + " --help)";
  }
  // The input named twice: as a word (`run clip.mp4`) and with --input.
  if (std::string(error.what()).find("--input: At Most 1") != std::string::npos)
    return "the input is given twice (as a word and with --input): give it once";
  return error.what();
}

}  // namespace vidpipe
