// SPDX-License-Identifier: GPL-3.0-or-later
// A whole set of balances (a piece count) through every stage: the table is generated and proven
// by the self-check (or, made earlier, proven now), minimized into a cover file, and the cover
// checked against the table over every legal position; when asked for, a capture-resolved cover
// too, proven like `check --capture-resolved --probe`. Each finished stage leaves a record,
// DATA/batch/NAME.rec, written atomically after the stage's own file, so a run killed at any
// moment and started again redoes at most the stage it was in, never a finished one, and the
// report is rebuilt from the records. Balances go in dependency order (a balance after the
// tables its captures and promotions reach), each stage timed with its own peak memory.
// A request for one stage only is what a cluster job runs (cluster/submit.hpp): the scheduler
// orders the jobs, and the records are the one account of what is finished.
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "logic/pipeline.hpp"
#include "run/batch_stage.hpp"
#include "run/run_plan.hpp"
#include "store/cover_kind.hpp"
#include "table/table.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::run {

struct StageFigures {
  bool done = false;
  double seconds = 0;       // wall
  uint64_t peak_bytes = 0;  // the process's peak resident set during the stage
};

struct BatchRecord {
  Balance balance;
  // Table: generated and self-checked here or on the way to another balance's table
  // (generate.seconds > 0), or found on disk and self-checked here (generate.seconds == 0,
  // self_check_seconds its proof). Its peak is that table's own (the dependencies made before
  // it have theirs in their records).
  StageFigures table;
  uint64_t table_expected_peak = 0;  // the run plan's estimate (run/run_plan.hpp), beside the measured
  double generate_seconds = 0;
  double self_check_seconds = 0;
  uint64_t positions = 0;  // canonical legal positions
  Table::Counts counts;
  // Cover.
  StageFigures minimize;
  uint64_t minimize_expected_peak = 0;
  double minimize_cpu_seconds = 0;
  uint64_t cubes = 0;
  uint64_t rule_draws = 0;
  uint64_t cover_bytes = 0;
  std::vector<int> split_inputs;
  uint64_t care_positions = 0;
  // Per pass, over parts summed (logic::Minimized::reports): where the minimization's time goes.
  std::vector<logic::PassReport> passes;
  // Comparison with Syzygy's WDL file on every legal position (the verify stage, run when a
  // Syzygy directory is given); not compared when the directory has no file for the balance.
  StageFigures verify;
  bool syzygy_compared = false;
  uint64_t syzygy_positions = 0;
  uint64_t syzygy_mismatches = 0;
  // Check of the cover over every legal position.
  StageFigures check;
  uint64_t checked_positions = 0;
  uint64_t mismatches = 0;
  // The capture-resolved cover (NAME.egtcr, with its probe layout), when asked for.
  StageFigures minimize_cr;
  uint64_t cr_minimize_expected_peak = 0;
  double cr_minimize_cpu_seconds = 0;
  uint64_t cr_cubes = 0;
  uint64_t cr_rule_draws = 0;
  uint64_t cr_cover_bytes = 0;
  uint64_t cr_search_positions = 0;   // left to the probe's capture search (wins, and at most a draw)
  bool cr_reused_standalone = false;  // none left: the standalone cover saved again (no pass ran)
  // Its proof: the cubes against the table with those positions open, and every legal position
  // through the indexed probe with its capture search.
  StageFigures check_cr;
  uint64_t cr_checked_positions = 0;  // by the cubes
  uint64_t cr_probed_positions = 0;   // through the probe
  uint64_t cr_mismatches = 0;         // of both
  // Syzygy's WDL file for the balance, in bytes, when the sizes are known.
  std::optional<uint64_t> syzygy_wdl_bytes;
  std::string error;  // the stage that failed and why; empty when none did

  StageFigures& stage(BatchStage s);
  const StageFigures& stage(BatchStage s) const;
};

struct BatchRequest {
  std::vector<Balance> balances;
  std::filesystem::path data_dir;
  logic::PassSequence passes;
  CanonScheme canon = CanonScheme::Full;
  logic::Effort effort = logic::Effort::Normal;
  int threads = 0;  // 0: default_threads()
  // As run::MinimizeRequest::memory_limit: a stage expected to need more is refused (the balance's
  // record says why) and the run goes on with the others.
  std::optional<uint64_t> memory_limit;
  // Syzygy WDL sizes, by balance name (read_syzygy_sizes()).
  std::map<std::string, uint64_t> syzygy_sizes;
  // Syzygy's directory: when given, each table is compared with its WDL file (the verify stage).
  std::filesystem::path syzygy_dir;
  // Only this stage of each balance (a cluster job's step). The stages it needs must be done: a
  // balance whose are not gets an error naming them, and nothing of it is run.
  std::optional<BatchStage> only;
  // The covers to make and prove. Standalone: the standalone cover's stages alone. CaptureResolved:
  // also the capture-resolved stages (minimize-cr, check-cr) of each balance, run after the
  // standalone stages of every balance listed: the capture search of one balance probes the covers
  // of the balances its captures and promotions reach. A balance one of those covers is missing
  // for gets an error naming them.
  store::CoverKind covers = store::CoverKind::Standalone;
};

struct BatchEvents {
  // After each stage of a balance, finished or found done: the record as it stands.
  std::function<void(const BatchRecord&, BatchStage stage, bool skipped)> stage_done;
};

// A "bytes<TAB>file" table such as ../shared/syzygy-wdl-sizes.tsv ("KRPvKR.rtbw" -> KRPvKR).
Result<std::map<std::string, uint64_t>> read_syzygy_sizes(const std::filesystem::path& tsv);

// The record of b under data_dir, when it has one.
std::optional<BatchRecord> load_record(const std::filesystem::path& data_dir, const Balance& b);

// The record of b as the files under data_dir bear it out: a stage counts as done only while what
// it made is still there (no table: nothing done; no cover: neither minimize nor check; no
// capture-resolved cover: neither minimize-cr nor check-cr). A balance without a record has every
// stage to do.
BatchRecord record_as_found(const std::filesystem::path& data_dir, const Balance& b);

// The balances b's capture search probes (those its captures and promotions reach) that have no
// cover of either kind under data_dir: its capture-resolved cover cannot be probed without them.
std::vector<Balance> missing_successor_covers(const std::filesystem::path& data_dir, const Balance& b);

// Runs every stage not done yet for each balance (or, with request.only, that one stage). Before a
// stage runs, temporaries that a killed earlier attempt left beside the files it writes are removed. A balance whose
// stage fails keeps its error in its record and the run goes on with the others; cancellation stops it between steps.
Result<std::vector<BatchRecord>> run_batch(const BatchRequest& request, const BatchEvents& events = {},
                                           const Progress& progress = no_progress());

}  // namespace egtmin::run
