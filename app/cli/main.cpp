// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli: every core feature from the command line. Thin: parse, call core, print.
#include <algorithm>
#include <iostream>

#include "common.hpp"

int main(int argc, char** argv) {
  using namespace egtmin::cli;
  CLI::App app{"egtmin-cli: chess endgame tables, exact and compressed by two-level logic minimization.\n"
               "Exit codes: 0 ok, 1 failure, 2 usage error.",
               "egtmin-cli"};
  app.set_version_flag("--version", std::string("egtmin-cli ") + EGTMIN_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  auto registered = registered_commands();
  std::sort(registered.begin(), registered.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<Command> commands;
  for (auto& [order, add] : registered) commands.push_back(add(app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }
  for (auto& [sub, run] : commands)
    if (sub->parsed()) return run();
  return kUsage;
}
