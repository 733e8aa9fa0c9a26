// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/run_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

#include "logic/pass_state.hpp"
#include "table/encoding.hpp"
#include "table/generator.hpp"
#include "table/symmetry.hpp"
#include "table/table_store.hpp"
#include "util/defaults.hpp"

namespace egtmin::run {

namespace {

// Making a table, per slot: the generator's state and two move counters (3 bytes), the table's
// four bits, the self-check's distance byte and the frontier lists, which are longest in the
// drawish pawnless balances. Pawn balances are made a pawn layer at a time, so their frontiers
// are shorter, with the 5-piece tables their promotions reach loaded. Both constants are set
// above the table peaks of the 5-piece batch records (docs/data/batch), which a test holds them
// to.
constexpr double kTableBytesPerSlot = 7.7;
constexpr double kPawnTableBytesPerSlot = 5.5;
constexpr double kLoadedTableBytesPerSlot = 0.5;  // a finished table in memory: four bits a slot
// The process itself, its code and the small tables.
constexpr uint64_t kBaseBytes = uint64_t{256} << 20;
// Minimizing: canonical legal positions are under half the slots. The passes hold the most bytes
// per care minterm of the parts in flight in diffuse functions (mostly draws), and a cover of
// millions of cubes needs more for its probe layout after the passes: counted as 140 bytes per
// care minterm in flight, above the minimize peaks of the batch records (docs/data/batch).
constexpr double kCareShareOfSlots = 0.46;
constexpr double kMinimizeBytesPerCare = 140;
// Capture-resolved: the don't-cares make primes larger and irredundant's matrix denser, so a care
// minterm in flight takes more. Set above the minimize-cr peaks of the batch records
// (docs/data/batch): the highest, KBBvKR's 7.57 GB, is 213 bytes per care minterm in flight
// beside the resolved copy.
constexpr double kResolvedMinimizeBytesPerCare = 225;
// Relative cost of minimizing a table against making it, from the batch records' stage times.
constexpr double kMinimizeWorkPerSlot = 1.5;

}  // namespace

size_t RunPlan::tables() const {
  return size_t(
      std::count_if(steps.begin(), steps.end(), [](const PlanStep& s) { return s.kind == PlanStep::Kind::Table; }));
}

const PlanStep* RunPlan::peak_step() const {
  auto it = std::max_element(steps.begin(), steps.end(),
                             [](const PlanStep& a, const PlanStep& b) { return a.peak_bytes < b.peak_bytes; });
  return it == steps.end() ? nullptr : &*it;
}

uint64_t RunPlan::peak_bytes() const {
  const PlanStep* s = peak_step();
  return s ? s->peak_bytes : 0;
}

double RunPlan::total_work() const {
  double w = 0;
  for (const PlanStep& s : steps) w += s.work;
  return w;
}

std::vector<Balance> dependency_order(const std::vector<Balance>& balances) {
  std::set<Balance> wanted;
  for (const Balance& b : balances) wanted.insert(b.canonical());
  std::vector<Balance> sorted(wanted.begin(), wanted.end());
  std::sort(sorted.begin(), sorted.end(), [](const Balance& a, const Balance& b) {
    return a.pieces() != b.pieces() ? a.pieces() < b.pieces() : a < b;
  });
  std::vector<Balance> out;
  std::set<Balance> visited;
  // Depth first over every dependency, wanted or not: each wanted balance after the wanted ones it
  // reaches, however far (KPPvKP reaches KRRvKP through KRPvKP's promotions). Captures and
  // promotions never lead back, so the walk ends; a balance is visited once.
  std::function<void(const Balance&)> place = [&](const Balance& b) {
    if (!visited.insert(b).second) return;
    for (const Balance& d : successor_balances(b)) place(d);
    if (wanted.count(b)) out.push_back(b);
  };
  for (const Balance& b : sorted) place(b);
  return out;
}

std::vector<Balance> missing_tables(const std::filesystem::path& data_dir, const std::vector<Balance>& balances) {
  TableStore store(data_dir);
  std::set<Balance> seen;
  std::vector<Balance> todo, missing;
  for (const Balance& b : balances) todo.push_back(b.canonical());
  while (!todo.empty()) {
    Balance b = todo.back();
    todo.pop_back();
    if (!seen.insert(b).second || store.on_disk(b)) continue;
    missing.push_back(b);
    for (const Balance& d : successor_balances(b)) todo.push_back(d);
  }
  return dependency_order(missing);
}

uint64_t table_slots(const Balance& b) { return Symmetry(Encoding(b.canonical())).domain_size(); }

uint64_t compare_peak_bytes(const Balance& b) {
  return kBaseBytes + uint64_t(2 * kLoadedTableBytesPerSlot * double(table_slots(b)));
}

uint64_t table_peak_bytes(const Balance& b) {
  double bytes = (b.has_pawns() ? kPawnTableBytesPerSlot : kTableBytesPerSlot) * double(table_slots(b));
  for (const Balance& d : successor_balances(b.canonical())) bytes += kLoadedTableBytesPerSlot * double(table_slots(d));
  return kBaseBytes + uint64_t(bytes);
}

uint64_t minimize_peak_bytes(const Balance& b, int threads, store::CoverKind kind) {
  const bool capture_resolved = kind == store::CoverKind::CaptureResolved;
  const uint64_t slots = table_slots(b);
  const double care = kCareShareOfSlots * double(slots);
  const double part = double(capture_resolved ? logic::kResolvedPartCareMinterms : logic::kPartCareMinterms);
  // A function over the part limit is split; up to one part per thread is minimized at once.
  const double in_flight = care > part ? std::min(care, part * double(resolve_threads(threads))) : care;
  const double table = kLoadedTableBytesPerSlot * double(slots);
  if (!capture_resolved) return kBaseBytes + uint64_t(table + kMinimizeBytesPerCare * in_flight);
  // Resolving the captures holds the table, its resolved copy and the tables the captures reach;
  // then the run lets all but the copy go (minimize_run) before the passes take their memory.
  double resolving = 2 * table;
  for (const Balance& d : successor_balances(b.canonical()))
    resolving += kLoadedTableBytesPerSlot * double(table_slots(d));
  const double minimizing = table + kResolvedMinimizeBytesPerCare * in_flight;
  return kBaseBytes + uint64_t(std::max(resolving, minimizing));
}

RunPlan plan_run(const std::filesystem::path& data_dir, const std::vector<Balance>& balances, bool minimizing,
                 int threads, store::CoverKind kind) {
  RunPlan plan;
  for (const Balance& b : missing_tables(data_dir, balances)) {
    const uint64_t slots = table_slots(b);
    plan.steps.push_back({PlanStep::Kind::Table, b, slots, double(slots), table_peak_bytes(b)});
  }
  if (minimizing) {
    std::set<Balance> seen;
    for (const Balance& given : balances) {
      const Balance b = given.canonical();
      if (!seen.insert(b).second) continue;
      const uint64_t slots = table_slots(b);
      plan.steps.push_back({PlanStep::Kind::Minimize, b, slots, kMinimizeWorkPerSlot * double(slots),
                            minimize_peak_bytes(b, threads, kind)});
    }
  }
  return plan;
}

std::string format_bytes(uint64_t bytes) {
  char buf[32];
  if (bytes >= 1'000'000'000)
    std::snprintf(buf, sizeof buf, "%.2f GB", double(bytes) / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.0f MB", double(bytes) / 1e6);
  return buf;
}

Status check_memory(const RunPlan& plan, uint64_t limit_bytes) {
  const PlanStep* s = plan.peak_step();
  if (!s || limit_bytes == 0 || s->peak_bytes <= limit_bytes) return ok_status();
  const char* what = s->kind == PlanStep::Kind::Table ? "making the table of " : "minimizing ";
  return Error{what + s->balance.name() + " is expected to need " + format_bytes(s->peak_bytes) +
               " of memory at its peak, more than the " + format_bytes(limit_bytes) +
               " the run may use (the memory available, or the limit given); free memory, or run it on a larger "
               "machine"};
}

}  // namespace egtmin::run
