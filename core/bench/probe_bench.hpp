// SPDX-License-Identifier: GPL-3.0-or-later
// The paper's query benchmark (section 3.4): sample legal positions, probe every one with each
// cover method and with Fathom and count disagreements, then time each method over the same
// positions, one method per pass so each runs with its own warm caches (or taking turns chunk by
// chunk: ProbeBenchOptions::turns).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/sampler.hpp"
#include "bench/stats.hpp"
#include "chess/balance.hpp"
#include "probe/probe.hpp"
#include "table/generator.hpp"
#include "util/enum_names.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::bench {

struct ProbeBenchOptions {
  int pieces = 4;
  uint64_t positions = 10'000'000;
  uint64_t seed = 1;
  bool keep_times = false;  // keep every per-probe time (for a CSV)
  // Each round times every method once over all positions, the methods in turn. On a shared
  // machine whose speed drifts, one pass per method lets a slow phase land on one method only;
  // with several rounds it falls on all of them alike, and the statistics pool every round.
  int rounds = 1;
  // How the methods take turns within a round. Pass: each method probes every position before the
  // next starts (the paper's batch timing; each method runs with its own warm caches). Chunk: the
  // methods take turns every 4,096 positions, which one goes first rotating, so that a machine
  // whose speed drifts even within a pass slows every method alike and the ratios of a round hold
  // still; each method then starts its chunk after the others' work, as an engine's probe starts
  // after its search. Methods that scan whole covers keep passes of their own either way: their
  // scans would flush every cache before the others' chunks.
  enum class Turns { Pass, Chunk };
  Turns turns = Turns::Pass;
  // Methods that scan whole covers (ProbeMethodInfo::scans_cover) are checked and timed on the
  // first this many positions only (0: all of them): a scan of a 5-piece cover is slow.
  uint64_t scan_positions = 0;
  // Only positions of these balances (canonical names; empty: every balance with a cover and a
  // Syzygy file), for per-balance figures. When one of them has no Syzygy WDL file, the run is
  // checked against the exact tables instead (run_probe_bench's `tables`) and Fathom is not
  // timed: most 5-piece balances have a cover and a table here but no Syzygy file.
  std::vector<Balance> balances;
  // Checked against the tables, Fathom left out, even where every balance has a Syzygy file.
  bool against_tables = false;
  // The default of scan_positions for a piece count: all positions up to 4 pieces, 2,000 at 5.
  static uint64_t default_scan_positions(int pieces) { return pieces >= 5 ? 2000 : 0; }
};

// How --turns and the records spell the ways methods take turns.
inline constexpr EnumName<ProbeBenchOptions::Turns> kTurnsNames[] = {{ProbeBenchOptions::Turns::Pass, "pass"},
                                                                     {ProbeBenchOptions::Turns::Chunk, "chunk"}};
constexpr std::span<const EnumName<ProbeBenchOptions::Turns>> enum_names(ProbeBenchOptions::Turns) {
  return kTurnsNames;
}

struct MethodTiming {
  probe::ProbeMethodId method = probe::ProbeMethodId::Indexed;
  uint64_t positions = 0;                   // timed (fewer than all for a method on a subsample)
  TimeStats per_probe;                      // steady_clock around each probe (includes timer_overhead_ns)
  double batch_mean_ns = 0;                 // clock pairs around chunks of 4096 probes, over all rounds, per probe
  std::vector<double> round_batch_mean_ns;  // the same for each round alone
  size_t memory_bytes = 0;
  std::vector<uint32_t> times_ns;  // when keep_times: each position's time in the last round
};

// What every position of a run is checked against: the anchor method (probe::anchor_method(),
// Fathom), or the exact tables.
enum class CheckedAgainst : uint8_t { AnchorMethod, Tables };

struct ProbeBenchResult {
  CheckedAgainst checked_against = CheckedAgainst::AnchorMethod;
  uint64_t positions = 0;
  uint64_t candidates = 0;  // drawn, including discarded ones
  uint64_t discarded_illegal = 0;
  uint64_t discarded_unavailable = 0;          // no cover or no Syzygy file for the balance
  uint64_t mismatches = 0;                     // against Fathom, or against the tables in a run anchored on them
  std::vector<std::string> mismatch_examples;  // FEN and the values, first few
  double timer_overhead_ns = 0;
  std::vector<MethodTiming> methods;
  std::vector<Sample> samples;  // when keep_times, to label the CSV
};

// progress.cancelled() is checked in every phase (sampling, the Fathom check, between timed chunks
// of 4096 probes, outside the timed regions); a cancelled run returns the error "cancelled".
// `resolved`: capture-resolved covers to time beside the standalone ones (the method
// ProbeMethodId::CaptureResolved), on the same positions in the same rounds; positions are then drawn from balances
// both kinds cover. `tables` gives the exact tables for a run of named balances without Syzygy files.
Result<ProbeBenchResult> run_probe_bench(const probe::CoverProber& prober, const Syzygy& syzygy,
                                         const ProbeBenchOptions& opts, const Progress& progress = no_progress(),
                                         const probe::CoverProber* resolved = nullptr,
                                         const TableLookup* tables = nullptr);

// The exact value of a legal position without en passant for the side to move, from the table of
// its balance (either colouring); nothing when `tables` has no table for it.
std::optional<Wdl> table_value(const TableLookup& tables, const Position& pos);

}  // namespace egtmin::bench
