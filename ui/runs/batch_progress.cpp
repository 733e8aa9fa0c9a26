// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/batch_progress.hpp"

#include <algorithm>

namespace egtmin::ui {

BatchProgress::BatchProgress(run::BatchPlan plan) : plan_(std::move(plan)) {
  for (const run::PlannedStage& p : plan_.stages) {
    // A stage estimated at under a second still takes a step of the bar.
    const double w = p.done ? 0.0 : std::max(1.0, double(p.expected_seconds.count()));
    before_.push_back(total_);
    weight_.push_back(w);
    total_ += w;
    toDo_ += !p.done;
    number_.push_back(toDo_);
  }
  skipDoneBefore();
}

void BatchProgress::skipDoneBefore() {
  while (current_ < plan_.stages.size() && plan_.stages[current_].done) ++current_;
}

const run::PlannedStage* BatchProgress::current() const {
  return current_ < plan_.stages.size() ? &plan_.stages[current_] : nullptr;
}

int BatchProgress::stageNumber() const { return current_ < number_.size() ? number_[current_] : toDo_; }

void BatchProgress::stageDone(const Balance& balance, run::BatchStage stage, bool skipped, bool failed) {
  const auto& stages = plan_.stages;
  const auto it = std::find_if(stages.begin(), stages.end(),
                               [&](const run::PlannedStage& p) { return p.balance == balance && p.stage == stage; });
  if (it == stages.end()) return;  // not planned (the files changed since): the count stays
  size_t next = size_t(it - stages.begin()) + 1;
  if (failed)
    while (next < stages.size() && stages[next].balance == balance) ++next;
  if (!skipped && !failed && !it->done) ++finished_;
  current_ = std::max(current_, next);
  skipDoneBefore();
}

double BatchProgress::fraction(double stageFraction) {
  if (total_ <= 0) return 1.0;
  const double f = std::clamp(stageFraction, 0.0, 1.0);
  const double done = current_ < before_.size() ? before_[current_] + f * weight_[current_] : total_;
  last_ = std::max(last_, std::min(1.0, done / total_));
  return last_;
}

}  // namespace egtmin::ui
