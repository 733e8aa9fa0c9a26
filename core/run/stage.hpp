// SPDX-License-Identifier: GPL-3.0-or-later
// What a batch stage is made of. Each stage of run/batch_stage.hpp's list is a specialization of
// Stage<S>, in a file of its own under run/stages/, with
//
//   struct Results {...};  // what it finds, each field listed with its key by
//   template <class R, class Visit> static void each(R& results, Visit&& visit);  // visit(key, field)
//   static void run(StageContext&, Results&);  // sets context.figures.done when it finished well
//   static std::string summary(const StageFigures&, const Results&);  // one line for a report
//   static bool outputs_there(const std::filesystem::path& data_dir, const Balance&, const Results&);
//       // false: what the stage made or proved is gone or changed on disk, so it runs again
//   static uint64_t expected_memory_bytes(const Balance&, int cpus);
//   static constexpr SlotRate kSecondsPerSlot;  // typical wall seconds per canonical table slot
//
// The batch runs it, records it (the keys are the record file's and the JSON report's), reports
// it, and plans a cluster job of it from these alone.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "chess/balance_kind.hpp"
#include "logic/pipeline.hpp"
#include "probe/probe_layout.hpp"
#include "run/batch_request.hpp"
#include "run/minimize_run.hpp"
#include "table/table_store.hpp"
#include "util/memory.hpp"
#include "util/progress.hpp"

namespace egtmin::run {

// What every stage records.
struct StageFigures {
  bool done = false;
  double seconds = 0;       // wall
  uint64_t peak_bytes = 0;  // the process's peak resident set during the stage
  double cpu_seconds = 0;   // the process's CPU time during the stage
};

struct StageContext {
  const BatchRequest& request;
  TableStore& store;
  const Balance& balance;
  int threads;  // resolved
  const Progress& progress;
  StageFigures& figures;  // the stage's own
  std::string error;      // why it failed, without the stage's name (empty: it did not, or it was cancelled)
};

// Wall seconds per canonical table slot on two cores, per kind of balance (chess/balance_kind.hpp),
// which the plan's estimates and the cluster's time limits (with their margin) are made from. The
// capture-resolved set's stages (table, minimize-cr, check-cr) take the pipeline benchmark's rates,
// its sample of one balance of each kind run with the machine to itself (docs/data/pipeline), so
// that a plan for the whole set sums to the benchmark's projection; the others the medians of the
// five-piece batch records (docs/data/batch; the Syzygy comparison from its one 5-piece run), the
// same for both shapes of a balance.
struct SlotRate {
  double pawnless_lone_king = 0, pawnless = 0;  // without pawns: against a lone king; material on each side
  double pawns_lone_king = 0, pawns = 0;        // with pawns: the same
  constexpr double of(const BalanceKind& k) const {
    return k.pawns ? (k.lone_king ? pawns_lone_king : pawns) : (k.lone_king ? pawnless_lone_king : pawnless);
  }
  // A rate for both shapes.
  static constexpr SlotRate by_pawns(double pawnless, double pawns) { return {pawnless, pawnless, pawns, pawns}; }
};

template <BatchStage S>
struct Stage;

// Measures one stage: wall time, CPU time and the peak resident set from a fresh start.
template <class Fn>
StageFigures measured(Fn&& fn) {
  StageFigures s;
  reset_peak_memory();
  const double cpu0 = logic::cpu_now(logic::CpuScope::Process);
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s.cpu_seconds = logic::cpu_now(logic::CpuScope::Process) - cpu0;
  s.peak_bytes = peak_memory_bytes();
  return s;
}

// One balance's cover of `kind` made and saved (with its probe layout) through the run pipeline,
// as `minimize` makes it, with the loaded tables let go first (it loads what it needs): the result,
// or nothing, with c's figures measured and c's error set (empty when cancelled).
struct MadeCover {
  StageFigures figures;
  std::optional<BalanceResult> result;
  std::string error;
  uint64_t bytes = 0;          // of the cover file
  probe::LayoutOnDisk layout;  // its probe layout, which probes without it (zero: none written)
};
MadeCover make_cover(StageContext& c, store::CoverKind kind);

// Whether b has a cover of `kind` under data_dir.
bool cover_exists(const std::filesystem::path& data_dir, const Balance& b, store::CoverKind kind);

// The balances b's capture search probes (those its captures and promotions reach) that have no
// cover of either kind under data_dir: its capture-resolved cover cannot be probed without them.
std::vector<Balance> missing_successor_covers(const std::filesystem::path& data_dir, const Balance& b);

// The capture-resolved stages refuse to start without the covers the capture search probes: the
// cover could be made, but neither proven nor probed. False, with c.error naming them, when one is
// missing.
bool successor_covers_there(StageContext& c);

}  // namespace egtmin::run
