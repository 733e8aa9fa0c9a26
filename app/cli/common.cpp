// SPDX-License-Identifier: GPL-3.0-or-later
#include "common.hpp"

#include <algorithm>
#include "util/defaults.hpp"
#include "util/memory.hpp"

#include <unistd.h>

#include <iostream>
#include <mutex>

namespace egtmin::cli {

std::vector<std::pair<int, AddCommand>>& registered_commands() {
  static std::vector<std::pair<int, AddCommand>> commands;
  return commands;
}

CommandRegistration::CommandRegistration(int order, AddCommand add) { registered_commands().push_back({order, add}); }

void add_common(CLI::App* sub, Common& c) {
  sub->add_option("--data", c.data,
                  "Data directory for tables and cover files (default: " + default_data_dir().string() + ")");
  sub->add_flag("--json", c.json, "Print the result as JSON on stdout");
  sub->add_flag("-q,--quiet", c.quiet, "No progress output on stderr");
  sub->add_option("-j,--threads", c.threads, "Worker threads (default 0: one per hardware thread)")
      ->check(CLI::Range(0, 1024));
}

void add_memory_limit(CLI::App* sub, std::string& text) {
  sub->add_option("--memory-limit", text,
                  "Refuse a run expected to need more memory at its peak than this: a size (12G), auto (the memory "
                  "available at the start) or none")
      ->capture_default_str();
}

Result<uint64_t> memory_limit(const std::string& text) {
  if (text == "none") return uint64_t{0};
  if (text == "auto") {
    const uint64_t available = available_memory_bytes();
    return available;  // 0 when the kernel does not say: no check
  }
  auto bytes = parse_byte_size(text);
  if (!bytes) return Error{"--memory-limit: " + bytes.error().message + ", auto or none"};
  if (*bytes == 0) return Error{"--memory-limit: 0 bytes leaves no room for any run; use none to turn the check off"};
  return *bytes;
}

void print_plan(const Common& c, const run::RunPlan& plan, uint64_t limit) {
  if (c.json || plan.steps.empty()) return;
  const size_t tables = plan.tables();
  const size_t minimize = plan.steps.size() - tables;
  std::printf("plan: %zu table(s) to make", tables);
  if (minimize) std::printf(", %zu balance(s) to minimize", minimize);
  const run::PlanStep* peak = plan.peak_step();
  std::printf("; expected peak %s (%s %s)", run::format_bytes(peak->peak_bytes).c_str(),
              peak->kind == run::PlanStep::Kind::Table ? "making the table of" : "minimizing",
              peak->balance.name().c_str());
  if (limit) std::printf(", limit %s", run::format_bytes(limit).c_str());
  std::printf("\n");
  std::fflush(stdout);
}

std::unique_ptr<Progress> make_progress(const Common& c) {
  if (c.quiet) return std::make_unique<Progress>();
  auto mutex = std::make_shared<std::mutex>();
  if (!isatty(STDERR_FILENO)) {
    // A log file (a long batch under nohup, a CI job): a line at every tenth of the run, and when
    // the stage changes but at most one every few seconds (parts minimized side by side take turns
    // at reporting), so the log says where a run is without filling up.
    struct Seen {
      std::string stage;
      int tenth = -1;
      std::chrono::steady_clock::time_point at;
    };
    auto seen = std::make_shared<Seen>();
    return std::make_unique<Progress>([seen, mutex](const ProgressEvent& e) {
      const std::string stage = progress_label(e);
      const int tenth = int(std::clamp(e.fraction, 0.0, 1.0) * 10);
      const auto now = std::chrono::steady_clock::now();
      std::lock_guard lock(*mutex);
      const bool new_tenth = tenth != seen->tenth;
      if (!new_tenth && (stage == seen->stage || now - seen->at < std::chrono::seconds(5))) return;
      seen->stage = stage;
      seen->tenth = tenth;
      seen->at = now;
      std::fprintf(stderr, "%s %3d%%\n", stage.c_str(), int(e.fraction * 100 + 0.5));
      std::fflush(stderr);
    });
  }
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return std::make_unique<Progress>([last, mutex](const ProgressEvent& e) {
    const double f = e.fraction;
    const std::string stage = progress_label(e);
    std::lock_guard lock(*mutex);
    auto now = std::chrono::steady_clock::now();
    if (now - *last < std::chrono::milliseconds(100) && f < 1.0 && f > 0.0) return;
    *last = now;
    int width = 30, filled = int(f * width + 0.5);
    std::fprintf(stderr, "\r\033[K%-40.40s [%s%s] %3d%%", stage.c_str(), std::string(filled, '#').c_str(),
                 std::string(width - std::min(width, filled), ' ').c_str(), int(f * 100 + 0.5));
    std::fflush(stderr);
  });
}

void end_progress(const Common& c) {
  if (!c.quiet && isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");
}

Result<std::vector<Balance>> parse_balances(const std::vector<std::string>& names) {
  std::vector<Balance> out;
  for (const auto& n : names) {
    auto b = Balance::parse(n);
    if (!b) return b.error();
    if (std::find(out.begin(), out.end(), b->canonical()) == out.end()) out.push_back(b->canonical());
  }
  return out;
}

void add_balance_selection(CLI::App* sub, std::vector<std::string>& names, int& pieces, const std::string& what) {
  sub->add_option("balances", names, what + " (balances such as KRvK, KQvKR, KRPvKR)");
  sub->add_option("--pieces", pieces, "Every balance with up to N pieces")
      ->check(CLI::Range(kMinSupportedPieces, kMaxSupportedPieces));
}

Result<std::vector<Balance>> balances_or_pieces(const std::vector<std::string>& names, int pieces,
                                                const std::string& command) {
  auto requested = parse_balances(names);
  if (!requested) return requested.error();
  std::vector<Balance> todo = *requested;
  if (pieces > 0)
    for (const Balance& b : Balance::all_up_to(pieces))
      if (std::find(todo.begin(), todo.end(), b) == todo.end()) todo.push_back(b);
  if (todo.empty()) return Error{"name at least one balance or give --pieces N (see " + command + " --help)"};
  return todo;
}

int fail(const std::string& message) {
  std::cerr << "egtmin-cli: error: " << message << "\n";
  return kFailure;
}

void print_json(const nlohmann::json& j) { std::cout << j.dump(2) << "\n"; }

namespace {
constexpr Wdl kShownOrder[] = {Wdl::Win, Wdl::CursedWin, Wdl::Draw, Wdl::BlessedLoss, Wdl::Loss};
std::string json_key(Wdl v) {
  std::string k(name_of(v));
  std::replace(k.begin(), k.end(), ' ', '_');
  return k;
}
}  // namespace

nlohmann::json value_counts_json(const Table::Counts& c) {
  nlohmann::json j = nlohmann::json::object();
  for (Wdl v : kShownOrder) j[json_key(v)] = c.of(v);
  return j;
}

}  // namespace egtmin::cli
