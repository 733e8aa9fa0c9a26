// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stages/check_stage.hpp"

#include <cstdio>

#include "logic/check.hpp"
#include "run/run_plan.hpp"
#include "store/cover_file.hpp"

namespace egtmin::run {

void Stage<BatchStage::Check>::run(StageContext& c, Results& r) {
  logic::CheckReport report;
  c.figures = measured([&] {
    auto t = c.store.get(c.balance);
    if (!t) {
      c.error = t.error().message;
      return;
    }
    auto cover = store::load_cover(store::cover_path(c.request.data_dir, c.balance), &c.balance);
    if (!cover) {
      c.error = cover.error().message;
      return;
    }
    report = logic::check_cover(**t, cover->cubes, cover->canon, cover->rule_draws, cover->implied, 0, 1, c.threads,
                                c.progress);
  });
  if (!c.error.empty() || c.progress.cancelled()) return;
  r.checked_positions = report.positions;
  r.mismatches = report.mismatches;
  if (report.mismatches > 0) {
    c.error = std::to_string(report.mismatches) + " mismatches (first: " + report.first_mismatch + ")";
    return;
  }
  c.figures.done = true;
}

std::string Stage<BatchStage::Check>::summary(const StageFigures& f, const Results& r) {
  char line[160];
  std::snprintf(line, sizeof line, "%llu positions, %llu mismatches in %.1f s, peak %.2f GB",
                (unsigned long long)r.checked_positions, (unsigned long long)r.mismatches, f.seconds,
                double(f.peak_bytes) / 1e9);
  return line;
}

uint64_t Stage<BatchStage::Check>::expected_memory_bytes(const Balance& b, int) { return compare_peak_bytes(b); }

}  // namespace egtmin::run
