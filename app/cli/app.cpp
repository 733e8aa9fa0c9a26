// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli's command tree and its one entry point, shared by main.cpp and the tests.
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "app.hpp"
#include "common.hpp"

namespace egtmin::cli {

namespace {

bool is_number(const std::string& s) {
  return s.size() > 1 && s.find_first_not_of("0123456789.", 1) == std::string::npos;
}

// CLI11 reports a missing required argument before an unknown flag, and a mistyped command as "a
// subcommand is required". Name the real problem first: walk the command path and check every
// flag against the options of the (sub)command it belongs to.
std::optional<std::string> usage_problem(CLI::App& app, int argc, char** argv) {
  CLI::App* current = &app;
  std::string path = "egtmin-cli";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() > 1 && arg[0] == '-' && !is_number(arg)) {
      std::string name = arg.substr(0, arg.find('='));
      bool known = false;
      for (const CLI::App* a = current; a && !known; a = a->get_parent())
        for (const CLI::Option* o : a->get_options())
          // "-qj2": the first letter decides; CLI11 takes the rest as more flags or a value.
          if (name.rfind("--", 0) == 0 ? o->check_lname(name.substr(2)) : o->check_sname(name.substr(1, 1)))
            known = true;
      if (!known) return "unknown option '" + name + "' for '" + path + "' (see " + path + " --help)";
      continue;
    }
    // A word: a subcommand of the current command, or a positional argument of a leaf command.
    CLI::App* sub = nullptr;
    for (CLI::App* s : current->get_subcommands({})) {
      if (s->get_name() == arg) sub = s;
    }
    if (sub) {
      current = sub;
      path += " " + arg;
    } else if (!current->get_subcommands({}).empty() && current->get_require_subcommand_min() > 0) {
      return "unknown command '" + arg + "' for '" + path + "' (see " + path + " --help)";
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<Command> build_app(CLI::App& app) {
  app.description(
      "egtmin-cli: chess endgame tables, exact and compressed by two-level logic minimization.\n"
      "Exit codes: 0 ok, 1 failure, 2 usage error.");
  app.name("egtmin-cli");
  app.set_version_flag("--version", std::string("egtmin-cli ") + EGTMIN_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  auto registered = registered_commands();
  std::sort(registered.begin(), registered.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<Command> commands;
  for (auto& [order, add] : registered) commands.push_back(add(app));
  return commands;
}

int run(int argc, char** argv) {
  CLI::App app;
  std::vector<Command> commands = build_app(app);
  if (auto problem = usage_problem(app, argc, argv)) {
    std::cerr << "egtmin-cli: error: " << *problem << "\n";
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }
  for (auto& [sub, runner] : commands)
    if (sub->parsed()) return runner();
  return kUsage;
}

}  // namespace egtmin::cli
