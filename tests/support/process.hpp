// SPDX-License-Identifier: GPL-3.0-or-later
// Running a built executable from a test: no shell, stdout and stderr captured separately.
#pragma once

#include <string>
#include <vector>

namespace egtmin::test {

struct ProgramRun {
  int exit_code = -1;  // -1: did not exit normally
  std::string out, err;
};

// Runs `program` with `args` (stdin from /dev/null) in the test's own environment, or in `env`
// ("NAME=value" entries) when given. A program silent for 60 s is a test failure.
ProgramRun run_program(const std::string& program, const std::vector<std::string>& args);
ProgramRun run_program(const std::string& program, const std::vector<std::string>& args,
                       const std::vector<std::string>& env);

// The test's own environment without the variables named in `drop`.
std::vector<std::string> environment_without(const std::vector<std::string>& drop);

}  // namespace egtmin::test
