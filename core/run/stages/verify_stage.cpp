// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stages/verify_stage.hpp"

#include <cstdio>

#include "run/run_plan.hpp"
#include "table/verify.hpp"

namespace egtmin::run {

void Stage<BatchStage::Verify>::run(StageContext& c, Results& r) {
  auto syzygy = Syzygy::open(c.request.syzygy_dir);
  if (!syzygy) {
    c.error = syzygy.error().message;
    return;
  }
  if (!(*syzygy)->has_wdl(c.balance)) {  // nothing to compare with: the self-check stays the proof
    r = Results{};
    c.figures = {true, 0, 0};
    return;
  }
  VerifyReport report;
  c.figures = measured([&] {
    auto t = c.store.get(c.balance);
    if (!t) {
      c.error = t.error().message;
      return;
    }
    VerifyOptions opts;
    opts.threads = c.threads;
    report = verify_against_syzygy(**t, **syzygy, opts, c.progress);
  });
  if (!c.error.empty() || c.progress.cancelled()) return;
  r.syzygy_compared = true;
  r.syzygy_positions = report.positions;
  r.syzygy_mismatches = report.mismatches;
  if (report.mismatches > 0) {
    c.error = std::to_string(report.mismatches) + " positions differ from Syzygy" +
              (report.examples.empty() ? "" : " (first: " + report.examples.front() + ")");
    return;
  }
  c.figures.done = true;
}

std::string Stage<BatchStage::Verify>::summary(const StageFigures& f, const Results& r) {
  if (!r.syzygy_compared) return "no Syzygy WDL file: not compared";
  char line[160];
  std::snprintf(line, sizeof line, "%llu positions against Syzygy, %llu mismatches in %.1f s",
                (unsigned long long)r.syzygy_positions, (unsigned long long)r.syzygy_mismatches, f.seconds);
  return line;
}

uint64_t Stage<BatchStage::Verify>::expected_memory_bytes(const Balance& b, int) { return compare_peak_bytes(b); }

}  // namespace egtmin::run
