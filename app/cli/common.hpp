// SPDX-License-Identifier: GPL-3.0-or-later
// What every egtmin-cli subcommand shares: --data, --json, --threads, --quiet, the progress bar on
// stderr, and the exit codes (0 ok, 1 failure, 2 usage).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>

#include <string>
#include <vector>
#include "run/run_plan.hpp"

#include "chess/balance.hpp"
#include "store/cover_kind.hpp"
#include "table/table.hpp"
#include "util/enum_names.hpp"
#include "util/paths.hpp"
#include "util/progress.hpp"

namespace egtmin::cli {

enum ExitCode { kOk = 0, kFailure = 1, kUsage = 2 };

struct Common {
  std::string data;
  bool json = false;
  bool quiet = false;
  int threads = 0;
  std::filesystem::path data_dir() const { return data.empty() ? default_data_dir() : std::filesystem::path(data); }
};

void add_common(CLI::App* sub, Common& c);

// --memory-limit SIZE|auto|none, for the commands that make tables or covers: "auto" (the
// default) is the memory available when the run starts, "none" turns the check off. Read back
// with memory_limit(): the bytes for run::MinimizeRequest::memory_limit (0: no check).
void add_memory_limit(CLI::App* sub, std::string& text);
Result<uint64_t> memory_limit(const std::string& text);

// An option that takes one of an enum's names (util/enum_names.hpp): --help lists the names, and
// any other text is a usage error that lists them.
template <class E>
CLI::Option* add_enum_option(CLI::App* sub, const std::string& flag, E& value, const std::string& description) {
  std::vector<std::string> names;
  for (const EnumName<E>& n : enum_names(E{})) names.emplace_back(n.name);
  return sub
      ->add_option_function<std::string>(
          flag, [&value](const std::string& text) { value = *parse_enum<E>(text); }, description)
      ->check(CLI::IsMember(names));
}

// The cover kind a --capture-resolved flag asks for.
inline store::CoverKind cover_kind(bool capture_resolved_flag) {
  return capture_resolved_flag ? store::CoverKind::CaptureResolved : store::CoverKind::Standalone;
}

// "plan: 3 tables to make, then 1 to minimize; expected peak 6.84 GB (making the table of KRPvKR)
// of 22.1 GB available" on stdout, unless the output is JSON.
void print_plan(const Common& c, const run::RunPlan& plan, uint64_t limit);

// A one-line progress bar on stderr, drawn only when stderr is a terminal and not --quiet.
std::unique_ptr<Progress> make_progress(const Common& c);
void end_progress(const Common& c);

// Balance names to canonical balances; errors name the bad argument.
Result<std::vector<Balance>> parse_balances(const std::vector<std::string>& names);

// The BALANCE... positional and --pieces N, as gen, minimize and check take them; read them back
// with balances_or_pieces.
void add_balance_selection(CLI::App* sub, std::vector<std::string>& names, int& pieces, const std::string& what);

// The named balances plus, when pieces > 0, every balance with up to that many pieces; an error
// (naming `command`'s --help) when that leaves nothing to do.
Result<std::vector<Balance>> balances_or_pieces(const std::vector<std::string>& names, int pieces,
                                                const std::string& command);

// Prints an error line to stderr and returns kFailure.
int fail(const std::string& message);
void print_json(const nlohmann::json& j);

// Counts of the five values, as JSON fields ("win", "cursed_win", "draw", "blessed_loss", "loss")
// (the text: value_counts_text in table/table.hpp).
nlohmann::json value_counts_json(const Table::Counts& c);

// Subcommand registration: each returns the function that runs it once parsed.
using Runner = std::function<int()>;
struct Command {
  CLI::App* sub;
  Runner run;
};
using AddCommand = Command (*)(CLI::App&);

// Each cmd_*.cpp registers its subcommand with a static CommandRegistration; `order` sorts --help.
struct CommandRegistration {
  CommandRegistration(int order, AddCommand add);
};
std::vector<std::pair<int, AddCommand>>& registered_commands();

}  // namespace egtmin::cli
