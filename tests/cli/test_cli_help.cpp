// SPDX-License-Identifier: GPL-3.0-or-later
// egtmin-cli's user-facing contract: every subcommand listed by `egtmin-cli --help` (parsed from
// its "Subcommands:" section, so new subcommands are covered automatically; groups such as pla
// are followed into their own subcommands) has working --help that documents every flag,
// including the shared --data and --json; usage errors exit 2 and name the offending argument;
// --version prints the project version.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "probe/probe_memory.hpp"
#include "support/process.hpp"

namespace {

using CliRun = egtmin::test::ProgramRun;

// Runs egtmin-cli with `args` (no shell), capturing stdout and stderr separately.
CliRun run_cli(const std::vector<std::string>& args) { return egtmin::test::run_program(EGTMIN_CLI, args); }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Rows of a CLI11 help section ("Subcommands:", "Options:"): lines indented by exactly two spaces
// after the header line, up to the next unindented line. Each row is returned without the indent,
// with its wrapped continuation lines (deeper indentation) appended after a double space.
std::vector<std::string> section_rows(const std::string& help, const std::string& header) {
  std::vector<std::string> rows;
  bool in = false;
  for (const auto& l : lines(help)) {
    if (l == header) {
      in = true;
      continue;
    }
    if (!in) continue;
    if (!l.empty() && l[0] != ' ') break;
    if (l.size() > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ')
      rows.push_back(l.substr(2));
    else if (!rows.empty() && l.find_first_not_of(' ') != std::string::npos)
      rows.back() += "  " + l.substr(l.find_first_not_of(' '));
  }
  return rows;
}

// CLI11 pads the spec to column 30 and starts the description there (on the next line when the
// spec is longer). A described row has text after a gap of two spaces, or, when the spec is
// exactly as wide as the column, after one space at column 30 (28 once the indent is gone).
bool has_description(const std::string& row) {
  constexpr size_t kColumn = 28;
  if (row.size() > kColumn && row[kColumn - 1] == ' ' && row[kColumn] != ' ') return true;
  auto gap = row.find("  ");
  return gap != std::string::npos && row.find_first_not_of(' ', gap) != std::string::npos;
}

std::string first_word(const std::string& row) { return row.substr(0, row.find(' ')); }

std::vector<std::string> subcommands() {
  CliRun r = run_cli({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> subs;
  for (const auto& row : section_rows(r.out, "Subcommands:")) subs.push_back(first_word(row));
  return subs;
}

// Every command path egtmin-cli accepts: each top-level subcommand, and for a group such as
// `pla` (whose help lists subcommands of its own) each of its subcommands too. Leaves are the
// commands that actually run and carry the shared flags.
struct CommandPath {
  std::vector<std::string> words;
  bool leaf = true;
  std::string name() const {
    std::string n;
    for (const auto& w : words) n += (n.empty() ? "" : " ") + w;
    return n;
  }
};
std::vector<CommandPath> command_paths() {
  std::vector<CommandPath> out;
  std::vector<CommandPath> todo;
  for (const auto& s : subcommands()) todo.push_back({{s}, true});
  while (!todo.empty()) {
    CommandPath p = todo.front();
    todo.erase(todo.begin());
    auto args = p.words;
    args.push_back("--help");
    CliRun r = run_cli(args);
    auto children = section_rows(r.out, "Subcommands:");
    p.leaf = children.empty();
    out.push_back(p);
    if (p.words.size() < 3)
      for (const auto& row : children) {
        CommandPath c = p;
        c.words.push_back(first_word(row));
        c.leaf = true;
        todo.push_back(c);
      }
  }
  return out;
}

// The long flags named in an option row's spec, e.g. "-q,--quiet" -> {"--quiet"};
// "--data TEXT" -> {"--data"}.
std::vector<std::string> long_flags(const std::string& row) {
  std::string spec = row.substr(0, row.find("  "));
  spec = spec.substr(0, spec.find(' '));
  std::vector<std::string> flags;
  std::istringstream in(spec);
  for (std::string f; std::getline(in, f, ',');)
    if (f.rfind("--", 0) == 0) flags.push_back(f);
  return flags;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

TEST(CliHelp, TopLevelHelpListsSubcommandsWithDescriptions) {
  CliRun r = run_cli({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Usage:")) << r.out;
  auto rows = section_rows(r.out, "Subcommands:");
  ASSERT_FALSE(rows.empty()) << "no Subcommands: section in\n" << r.out;
  for (const auto& row : rows) {
    // "name   description": a subcommand without a description leaves users guessing.
    auto rest = row.substr(first_word(row).size());
    EXPECT_NE(rest.find_first_not_of(' '), std::string::npos) << "subcommand without description: " << row;
  }
  auto subs = subcommands();
  for (const char* expected : {"gen", "verify", "probe"})
    EXPECT_NE(std::find(subs.begin(), subs.end(), expected), subs.end()) << expected << " missing from\n" << r.out;
}

TEST(CliHelp, EverySubcommandHelpExitsZeroAndNamesItsFlags) {
  auto paths = command_paths();
  ASSERT_FALSE(paths.empty());
  for (const auto& path : paths) {
    SCOPED_TRACE("egtmin-cli " + path.name() + " --help");
    auto args = path.words;
    args.push_back("--help");
    CliRun r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << "help should go to stdout, stderr was: " << r.err;
    EXPECT_TRUE(contains(r.out, "Usage:")) << r.out;
    EXPECT_TRUE(contains(r.out, path.words.back())) << r.out;
    auto options = section_rows(r.out, "Options:");
    std::vector<std::string> named;
    for (const auto& row : options) {
      auto flags = long_flags(row);
      named.insert(named.end(), flags.begin(), flags.end());
      EXPECT_TRUE(has_description(row)) << "option without description: " << row;
    }
    EXPECT_NE(std::find(named.begin(), named.end(), "--help"), named.end()) << r.out;
    if (!path.leaf) continue;  // a group (e.g. pla): its subcommands carry the shared flags
    for (const char* common : {"--data", "--json", "--quiet", "--threads"}) {
      EXPECT_NE(std::find(named.begin(), named.end(), common), named.end())
          << path.name() << " --help does not name " << common << ":\n"
          << r.out;
    }
  }
}

// Exit 2 with a message on stderr and nothing on stdout. (Subcommands with a required argument
// report that first -- CLI11 checks requirements before unknown flags -- so only gen, which has
// none, is held to naming --bogus below.)
TEST(CliHelp, EverySubcommandRejectsAnUnknownFlagWithUsageExit) {
  for (const auto& path : command_paths()) {
    SCOPED_TRACE(path.name());
    auto args = path.words;
    args.push_back("--bogus");
    CliRun r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_FALSE(r.err.empty());
    EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
  }
}

TEST(CliHelp, BadFlagExitsTwoAndNamesIt) {
  CliRun r = run_cli({"gen", "--bogus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--bogus")) << "stderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
}

// probe --memory: a name that is no level is a usage error that lists the levels, and --help
// describes every level.
TEST(CliHelp, ProbeMemoryLevelsAreListed) {
  CliRun bad = run_cli({"probe", "8/8/8/8/8/2k5/3r4/K7 b - - 0 1", "--memory", "tiny"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "'tiny'")) << "stderr: " << bad.err;
  EXPECT_TRUE(contains(bad.err, egtmin::probe::probe_memory_names())) << "stderr: " << bad.err;
  EXPECT_TRUE(bad.out.empty()) << "stdout: " << bad.out;
  CliRun help = run_cli({"probe", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const egtmin::probe::ProbeMemoryLevel& l : egtmin::probe::probe_memory_levels())
    EXPECT_TRUE(contains(help.out, std::string(l.name) + " (" + std::string(l.description) + ")")) << help.out;
}

TEST(CliHelp, UnknownSubcommandAndMissingSubcommandAreUsageErrors) {
  CliRun unknown = run_cli({"frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_FALSE(unknown.err.empty());
  CliRun none = run_cli({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_FALSE(none.err.empty());
}

TEST(CliHelp, VersionExitsZeroAndPrintsTheVersion) {
  CliRun r = run_cli({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, EGTMIN_VERSION)) << "stdout: " << r.out;
  EXPECT_TRUE(contains(r.out, "egtmin-cli")) << "stdout: " << r.out;
}
