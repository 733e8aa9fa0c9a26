// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli as a function: main.cpp calls run(); tests build the same command tree in-process.
#pragma once

#include <vector>

#include "common.hpp"

namespace egtmin::cli {

// Adds every registered subcommand (cmd_*.cpp) to `app`, sorted as --help lists them.
std::vector<Command> build_app(CLI::App& app);
// Parses argv and runs the chosen subcommand; returns the exit code (0 ok, 1 failure, 2 usage).
int run(int argc, char** argv);

}  // namespace egtmin::cli
