// SPDX-License-Identifier: GPL-3.0-or-later
// The one minimize pipeline the CLI and the GUI both run: make sure the balances' tables exist
// (dependencies first), then minimize each balance through the chosen passes and save its cover
// file, balances in parallel where memory allows. Progress, cancellation and events come back
// through the caller's Progress and callbacks; nothing here prints.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chess/balance.hpp"
#include "logic/pipeline.hpp"
#include "probe/layout_bytes.hpp"
#include "run/run_plan.hpp"
#include "store/cover_file.hpp"
#include "table/table_store.hpp"
#include "util/enum_names.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::run {

// Benchmarks minimize without writing cover files.
enum class CoverOutput : uint8_t { Save, Discard };

// Which output a saved cover leaves implied (store::CoverFile::implied): none, or the one with the
// most cubes, which saves the most (docs/algorithms.md, "Storage").
enum class ImpliedOutput : uint8_t { None, MostCubes };
constexpr ImpliedOutput kDefaultImplied = ImpliedOutput::MostCubes;
// As --implied spells them (util/enum_names.hpp).
inline constexpr EnumName<ImpliedOutput> kImpliedOutputNames[] = {{ImpliedOutput::None, "none"},
                                                                  {ImpliedOutput::MostCubes, "most-cubes"}};
constexpr std::span<const EnumName<ImpliedOutput>> enum_names(ImpliedOutput) { return kImpliedOutputNames; }

struct MinimizeRequest {
  std::vector<Balance> balances;  // any colouring; each is minimized once, in canonical form
  logic::PassSequence passes;     // empty: only make the tables
  CanonScheme canon = CanonScheme::Full;
  logic::Effort effort = logic::Effort::Normal;
  std::optional<std::vector<int>> split;  // logic::MinimizeOptions::split
  int threads = 0;                        // 0: default_threads()
  CoverOutput covers = CoverOutput::Save;
  // Capture-resolved: what a capture or promotion reaches is left to the probe's capture search
  // (table/capture_resolve.hpp), and the cover is saved as NAME.egtcr.
  store::CoverKind kind = store::CoverKind::Standalone;
  ImpliedOutput implied = kDefaultImplied;
  std::filesystem::path data_dir;
  // Bytes the run may use at its peak: a run whose plan (run/run_plan.hpp) is expected to need
  // more is refused before it starts. Unset: the memory available when it starts; 0: no check.
  std::optional<uint64_t> memory_limit;
  // Prove each new table by the self-check before it is written (gen --no-self-check turns it off).
  bool self_check = true;
  // The bytes each named balance's probe layout should take (probe::make_layout's bytes); a
  // balance not named gets the fast form.
  std::map<std::string, probe::LayoutBytes> layout_bytes;
};

struct BalanceResult {
  Balance balance;
  std::string error;         // empty when it succeeded
  logic::Minimized summary;  // its cover is dropped once saved (memory over many balances)
  uint64_t cubes = 0;        // of the final cover, the implied output's left out
  logic::Output implied = logic::Output::None;
  uint64_t capture_resolved = 0;  // positions left to the capture search (capture-resolved covers)
  uint64_t capture_capped = 0;    // of them, those the cover may give a draw or worse (the rest: wins)
  // A capture-resolved cover that is the balance's standalone cover, saved again: capture
  // resolution left nothing to the search, so no pass ran (summary holds the scheme and the
  // 50-move-rule draws only).
  bool reused_standalone = false;
  double seconds = 0;  // minimization wall time
  double cpu_seconds = 0;
  std::filesystem::path cover_path;  // empty when not saved
  bool ok() const { return error.empty(); }
};

struct MinimizeRunResult {
  std::vector<BalanceResult> balances;  // in request order (only when the run reached them)
  RunPlan plan;                         // what the run set out to do, with its expected peak
  std::vector<Balance> generated;       // tables the run had to make first
  int balance_workers = 1;              // balances minimized at once
  int pass_threads = 1;                 // threads inside each balance's passes
  double seconds = 0;
  bool ok() const;
};

// Called from worker threads, one call at a time (the run serializes them).
struct MinimizeEvents {
  // Before any work: what the run will do and its expected peak (it has passed the memory check).
  std::function<void(const RunPlan&)> planned;
  // After each new table is written, with its generation and self-check report.
  std::function<void(const Balance&, const TableStore::Generated&)> table_generated;
  // Before a balance's first pass: the care minterms it starts from.
  std::function<void(const Balance&, uint64_t minterms, uint64_t care_positions, int inputs)> balance_started;
  std::function<void(const Balance&, const logic::PassReport&)> pass_done;
  std::function<void(const BalanceResult&)> balance_done;
};

// How a minimizing run shares its threads between balances.
struct ThreadSplit {
  int balance_workers = 1;  // balances minimized at once
  int pass_threads = 1;     // threads inside each balance's passes
};
// For `threads` threads (0: default_threads()): several small balances share the threads (one
// each); a single balance, or a run with a 5-piece balance, has them all in its passes (5 pieces:
// one balance at a time, for memory).
ThreadSplit split_threads(const std::vector<Balance>& balances, int threads);

// Validates the request first (piece counts), then runs it. `progress` sees every stage with the
// fraction of the whole run and a detail naming the balance; cancelling it stops the run at the
// next check, with the error "cancelled". A balance that fails is reported in its result and the
// others go on; a table that cannot be made ends the run with its error.
Result<MinimizeRunResult> run_minimize(const MinimizeRequest& request, const MinimizeEvents& events = {},
                                       const Progress& progress = no_progress());

}  // namespace egtmin::run
