// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline benchmark: a fixed sample of balances through the batch's capture-resolved stages
// end to end (their table, its proof, the capture-resolved cover and its proof through the capture
// search, and what those need first), each stage's wall time, CPU time and peak, and from them a
// projection for every balance of a piece count.
//
// The projection: per stage and per kind of balance (chess/balance_kind.hpp), the sample's seconds per
// canonical table slot (its balances' stage times summed over their slots summed), times the slots
// of every balance of that kind. Stages run one after another, as a batch runs them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "chess/balance_kind.hpp"
#include "run/batch_stage.hpp"
#include "run/stage.hpp"
#include "util/progress.hpp"
#include "util/result.hpp"

namespace egtmin::bench {

// One balance of each kind: a pawnless balance against a lone king, a pawnless one with a piece
// on each side, KRPvKR, and one with two pawns against a lone king.
std::vector<Balance> default_pipeline_sample();

struct PipelineRequest {
  std::vector<Balance> sample;  // empty: default_pipeline_sample()
  std::filesystem::path data_dir;
  std::filesystem::path syzygy_dir;  // optional: the tables compared with Syzygy where it has files
  int threads = 0;                   // 0: default_threads()
  int project_pieces = 5;            // the projection covers every balance of this many pieces
};

// One stage of a sample balance.
struct PipelineStage {
  Balance balance;
  run::BatchStage stage;
  run::StageFigures figures;
  bool ran_here = false;  // false: done before this run, its figures from its record
  uint64_t slots = 0;     // of the balance's table
};

// One term of the projection.
struct ProjectedStage {
  run::BatchStage stage;
  BalanceKind kind;
  double seconds_per_slot = 0;  // from the sample's balances of this kind (or the nearest, below)
  std::vector<Balance> from;    // those balances
  size_t balances = 0;          // of this kind among the projected ones
  uint64_t slots = 0;           // theirs, summed
  double seconds = 0;           // seconds_per_slot * slots
};

struct PipelineReport {
  std::vector<Balance> sample;
  std::vector<PipelineStage> stages;  // the sample's, in run order
  int project_pieces = 5;
  std::vector<ProjectedStage> projection;
  double projected_seconds = 0;     // summed
  PipelineStage largest_peak;       // of the sample's stages
  std::vector<std::string> errors;  // a balance's failed stage, as the batch records it
};

// The projection from a sample's stages (what run_pipeline_bench computes after its run). A kind
// the sample has no balance of takes the rate of the kind with the same pawns and the other
// shape, else of the same shape without (or with) pawns, else of the fourth; `from` then names
// the balances whose rate it took.
std::vector<ProjectedStage> project(const std::vector<PipelineStage>& stages, int pieces);

Result<PipelineReport> run_pipeline_bench(const PipelineRequest& request, const Progress& progress = no_progress());

}  // namespace egtmin::bench
