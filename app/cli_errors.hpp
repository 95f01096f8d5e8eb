// A command-line mistake as one line, with the nearest valid word where there is one, as git
// and cargo do ("unknown command 'runn'; did you mean 'run'?"). CLI11 names what it could not
// match but suggests nothing, so the suggestion is made here.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace vidpipe {

std::string describe_cli_error(const CLI::App& app, const CLI::ParseError& error, int argc, const char* const* argv);

}  // namespace vidpipe
