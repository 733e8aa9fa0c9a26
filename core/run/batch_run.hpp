// SPDX-License-Identifier: GPL-3.0-or-later
// A set of balances (a piece count, or those named) through the stages of run/batch_stage.hpp:
// the table generated and proven by the self-check (or, made earlier, proven now), and the covers
// asked for, each made and proven over every legal position. Each finished stage leaves a record,
// DATA/batch/NAME.rec, written atomically after the stage's own file, so a run killed at any
// moment and started again redoes at most the stage it was in, never a finished one, and the
// report is rebuilt from the records. Balances go in dependency order (a balance after the
// tables its captures and promotions reach, and after the covers its capture search probes), each
// stage timed with its own peak memory.
// A request for one stage only is what a cluster job runs (cluster/submit.hpp): the scheduler
// orders the jobs, and the records are the one account of what is finished.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "chess/balance.hpp"
#include "run/batch_request.hpp"
#include "run/stages/all.hpp"
#include "table/table_store.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::run {

struct BatchRecord {
  Balance balance;
  StageRecords stages;  // by BatchStage: done, time and peak, and what the stage found
  // Syzygy's WDL file for the balance, in bytes, when the sizes are known.
  std::optional<uint64_t> syzygy_wdl_bytes;
  std::string error;  // "STAGE: why" for the stage that failed; empty when none did

  template <BatchStage S>
  StageRecord<S>& at() {
    return std::get<size_t(S)>(stages);
  }
  template <BatchStage S>
  const StageRecord<S>& at() const {
    return std::get<size_t(S)>(stages);
  }
  template <BatchStage S>
  typename Stage<S>::Results& results() {
    return at<S>().results;
  }
  template <BatchStage S>
  const typename Stage<S>::Results& results() const {
    return at<S>().results;
  }
  StageFigures& stage(BatchStage s);
  const StageFigures& stage(BatchStage s) const;
};

// A stage's key in the record file and the JSON report: its name with '_' for '-' ("minimize_cr").
std::string stage_key(BatchStage s);

struct BatchEvents {
  // After each stage of a balance, finished or found done: the record as it stands.
  std::function<void(const BatchRecord&, BatchStage stage, bool skipped)> stage_done;
};

// A "bytes<TAB>file" table such as ../shared/syzygy-wdl-sizes.tsv ("KRPvKR.rtbw" -> KRPvKR).
Result<std::map<std::string, uint64_t>> read_syzygy_sizes(const std::filesystem::path& tsv);

// The record of b under data_dir, when it has one.
std::optional<BatchRecord> load_record(const std::filesystem::path& data_dir, const Balance& b);

// The record of b as the files under data_dir bear it out: a stage counts as done only while what
// it made is still there and the stages it needs are done (no table: nothing done; no cover:
// neither its minimization nor its check). A balance without a record has every stage to do.
BatchRecord record_as_found(const std::filesystem::path& data_dir, const Balance& b);

// A table made and self-checked on the way to another balance's: b's record gets the table stage,
// so that a batch of b later finds it done instead of proving the table a second time. Stages made
// from an older table are undone.
void record_dependency_table(const std::filesystem::path& data_dir, const Balance& b, const TableStore::Generated& g);

// The balances the run goes through, in dependency order: those asked for and, when the run makes
// capture-resolved covers, the balances their capture searches reach that have no cover yet (and
// theirs, in turn), whose capture-resolved covers it makes first; with SuccessorValues::Tables,
// instead those whose tables are not on disk, whose tables alone it makes first.
std::vector<Balance> batch_balances(const BatchRequest& request);

// The expected peak memory and wall time of stage s of b on `cpus` cores (Stage<S>'s figures).
uint64_t expected_stage_peak_bytes(const Balance& b, BatchStage s, int cpus);
std::chrono::seconds expected_stage_seconds(const Balance& b, BatchStage s, int cpus);

// What a run would do: each wanted stage of each balance of batch_balances, in order, done or to
// do, with its expected time and peak.
struct PlannedStage {
  Balance balance;
  BatchStage stage;
  bool done = false;
  std::chrono::seconds expected_seconds{0};
  uint64_t expected_peak_bytes = 0;
};
struct BatchPlan {
  std::vector<PlannedStage> stages;
  std::chrono::seconds seconds_to_do() const;  // stages run one after another
  uint64_t peak_bytes_to_do() const;           // the largest stage's
};
BatchPlan plan_batch(const BatchRequest& request);

// Runs every stage asked for and not done yet of each balance of batch_balances (or, with
// request.only, that one stage). Before a balance's stages run, temporaries that a killed earlier
// attempt left beside the files they write are removed. A balance whose stage fails keeps its
// error in its record and the run goes on with the others; cancellation stops it between steps.
Result<std::vector<BatchRecord>> run_batch(const BatchRequest& request, const BatchEvents& events = {},
                                           const Progress& progress = no_progress());

}  // namespace egtmin::run
