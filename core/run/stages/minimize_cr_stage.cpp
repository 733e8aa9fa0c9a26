// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stages/minimize_cr_stage.hpp"

#include <cstdio>

#include "run/run_plan.hpp"
#include "store/cover_file.hpp"

namespace egtmin::run {

void Stage<BatchStage::MinimizeCr>::run(StageContext& c, Results& r) {
  if (!successor_covers_there(c)) return;
  r.expected_peak_bytes = expected_memory_bytes(c.balance, c.threads);
  const MadeCover made = make_cover(c, store::CoverKind::CaptureResolved);
  if (!made.result) return;
  const BalanceResult& result = *made.result;
  r.cpu_seconds = result.cpu_seconds;
  r.cubes = result.cubes;
  r.rule_draws = result.summary.rule_draws.size();
  r.search_positions = result.capture_resolved;
  r.reused_standalone = result.reused_standalone;
  r.cover_bytes = made.bytes;
  c.figures.done = true;
}

std::string Stage<BatchStage::MinimizeCr>::summary(const StageFigures& f, const Results& r) {
  char line[240];
  std::snprintf(line, sizeof line,
                "%llu cubes, %llu bytes, %llu positions left to the capture search%s, in %.1f s, "
                "peak %.2f GB "
                "(expected %.2f)",
                (unsigned long long)r.cubes, (unsigned long long)r.cover_bytes, (unsigned long long)r.search_positions,
                r.reused_standalone ? " (its standalone cover, saved again)" : "", f.seconds,
                double(f.peak_bytes) / 1e9, double(r.expected_peak_bytes) / 1e9);
  return line;
}

}  // namespace egtmin::run
