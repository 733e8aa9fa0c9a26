// SPDX-License-Identifier: GPL-3.0-or-later
// What a run will do, known before it starts: the tables it must make first (each after the
// tables its captures and promotions reach), the balances it then minimizes, each step's share of
// the whole work and the memory it is expected to need at its peak. Runs report progress by these
// steps ("table 2 of 5: KRRvKR"), and a run whose peak the machine cannot hold is refused before
// it starts rather than killed midway, its work lost.
//
// The memory figures are upper estimates from the data structures' sizes, calibrated on measured
// runs (docs/data/batch): a table step holds the generator's per-slot state (three bytes), the
// new table (half a byte), the self-check's distances (one byte) and the tables of the balances
// its captures and promotions reach; a minimization holds its table and the passes' structures
// over the care minterms of the parts it minimizes at once (logic/split.hpp bounds a part).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "store/cover_kind.hpp"
#include "util/result.hpp"

namespace egtmin::run {

struct PlanStep {
  enum class Kind : uint8_t { Table, Minimize };
  Kind kind = Kind::Table;
  Balance balance;     // canonical
  uint64_t slots = 0;  // of the balance's table
  double work = 0;     // relative cost, the step's weight in the run's progress
  uint64_t peak_bytes = 0;
};

struct RunPlan {
  std::vector<PlanStep> steps;  // tables in dependency order, then the minimizations
  size_t tables() const;
  uint64_t peak_bytes() const;        // the largest step's
  const PlanStep* peak_step() const;  // nullptr when there is no step
  double total_work() const;
};

// The balances in an order where each comes after those of its captures and promotions that are
// in the list (then by piece count and name).
std::vector<Balance> dependency_order(const std::vector<Balance>& balances);

// The tables `balances` need that are not on disk under data_dir (the balances and their missing
// dependencies), in dependency order.
std::vector<Balance> missing_tables(const std::filesystem::path& data_dir, const std::vector<Balance>& balances);

// Canonical slots of b's table (both sides to move).
uint64_t table_slots(const Balance& b);

// The expected peak of making b's table (generating and self-checking it) and of minimizing it
// with `threads` threads (0: default_threads(); parts side by side).
uint64_t table_peak_bytes(const Balance& b);
// A capture-resolved minimization also holds the resolved copy of the table and the tables
// captures and promotions reach.
uint64_t minimize_peak_bytes(const Balance& b, int threads, store::CoverKind kind = store::CoverKind::Standalone);

// The expected peak of comparing b's table with another form of it on every legal position: the
// table loaded, and a cover (or Syzygy's file, mapped) beside it, well under a byte a slot.
uint64_t compare_peak_bytes(const Balance& b);

// The plan of making the missing tables of `balances` and, when `minimizing`, minimizing each.
RunPlan plan_run(const std::filesystem::path& data_dir, const std::vector<Balance>& balances, bool minimizing,
                 int threads, store::CoverKind kind = store::CoverKind::Standalone);

// OK when the plan's peak fits in `limit_bytes`; otherwise an error naming the step, its
// expected peak and the limit. A limit of 0 means unknown: everything fits.
Status check_memory(const RunPlan& plan, uint64_t limit_bytes);

// "6.57 GB"
std::string format_bytes(uint64_t bytes);

}  // namespace egtmin::run
