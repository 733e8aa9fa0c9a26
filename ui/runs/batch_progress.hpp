// SPDX-License-Identifier: GPL-3.0-or-later
// A batch run's progress as one bar and one stage count. Core reports each stage's own fraction
// (run::run_batch); here each stage to do takes its share of the bar by the plan's expected
// seconds, so the small balances a 5-piece cover needs first fill only a sliver and the long
// 5-piece stages most of it. The stages are numbered as the plan lists them ("stage 3 of 9").
// Not thread-safe: its owner calls it under one lock from the run's threads.
#pragma once

#include <cstddef>
#include <vector>

#include "run/batch_run.hpp"

namespace egtmin::ui {

class BatchProgress {
 public:
  explicit BatchProgress(run::BatchPlan plan);

  const run::BatchPlan& plan() const { return plan_; }
  // The stage the run is in or starts next: the plan's first stage to do that has not ended;
  // nullptr once the run is past the last.
  const run::PlannedStage* current() const;
  // current()'s place among the stages to do, from 1; stageCount() of them.
  int stageNumber() const;
  int stageCount() const { return toDo_; }
  // Stages to do that this run finished (each recorded under DATA/batch).
  int finished() const { return finished_; }

  // run::BatchEvents::stage_done. The run goes on with the plan's next stage or, after a failed
  // one, with the next balance's first: run_batch leaves a failed balance's later stages.
  void stageDone(const Balance& balance, run::BatchStage stage, bool skipped, bool failed);
  // A report of `stageFraction` of the current stage, as a fraction of the whole run. Never less
  // than the last answer: a stage reports sub-steps (generate, then self-check) each from 0, and
  // the bar should not run back.
  double fraction(double stageFraction);

 private:
  void skipDoneBefore();

  run::BatchPlan plan_;
  std::vector<double> before_;  // expected seconds of the stages to do before each stage
  std::vector<double> weight_;  // each stage's expected seconds; 0 for those done before
  std::vector<int> number_;     // each stage's place among the stages to do, from 1
  double total_ = 0;
  size_t current_ = 0;
  int toDo_ = 0;
  int finished_ = 0;
  double last_ = 0;
};

}  // namespace egtmin::ui
