// SPDX-License-Identifier: GPL-3.0-or-later
// Running the scheduler's own commands (sbatch, squeue, sacct, scancel). Everything in cluster/
// reaches Slurm through a CommandRunner, so the tests can stand a fake in for the real one and
// check the arguments sent and the parsing of what comes back without a Slurm installed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace egtmin::cluster {

struct CommandOutput {
  int exit_code = -1;  // -1: did not exit normally
  std::string out, err;
};

// Runs argv (argv[0] looked up in PATH); an Error only when it could not be started at all.
using CommandRunner = std::function<Result<CommandOutput>(const std::vector<std::string>& argv)>;

// The real one: no shell, stdin from /dev/null, stdout and stderr captured separately.
Result<CommandOutput> run_command(const std::vector<std::string>& argv);

}  // namespace egtmin::cluster
