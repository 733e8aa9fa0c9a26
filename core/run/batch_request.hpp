// SPDX-License-Identifier: GPL-3.0-or-later
// What a batch is asked to do (run/batch_run.hpp runs it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "chess/balance.hpp"
#include "logic/pipeline.hpp"
#include "run/batch_stage.hpp"
#include "run/successor_values.hpp"
#include "util/defaults.hpp"

namespace egtmin::run {

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
  // The bytes a balance's probe layout should take at most, as a share of its Syzygy WDL file
  // (where syzygy_sizes has it; 0: no bound): a layout whose fast form takes more has its region
  // cubes framed (probe::make_layout's target); where no form comes within it, its fastest form
  // within kLayoutSyzygyCeiling of the file (the ceiling) is kept.
  double layout_bound = kLayoutSyzygyBound;
  // Syzygy's directory: when given, each table is compared with its WDL file (the verify stage).
  std::filesystem::path syzygy_dir;
  // Only this stage of each balance (a cluster job's step). The stages it needs must be done: a
  // balance whose are not gets an error naming them, and nothing of it is run.
  std::optional<BatchStage> only;
  // The covers to make and prove, each with its stages. A capture-resolved cover's proof probes
  // the covers of the balances its captures and promotions reach, so a run asked for
  // capture-resolved covers also makes the capture-resolved covers of those balances that have no
  // cover yet, before the balances that need them.
  CoverSet covers = CoverSet::Standalone;
  // Where a capture-resolved cover's proof takes the values its search reaches. With Tables, the
  // run makes no cover of a balance it was not asked for: the tables they reach are enough.
  SuccessorValues successors = SuccessorValues::Covers;
};

}  // namespace egtmin::run
