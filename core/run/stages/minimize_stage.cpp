// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/stages/minimize_stage.hpp"

#include <cstdio>

#include "run/run_plan.hpp"
#include "store/cover_file.hpp"

namespace egtmin::run {

void Stage<BatchStage::Minimize>::run(StageContext& c, Results& r) {
  r.expected_peak_bytes = expected_memory_bytes(c.balance, c.threads);
  const MadeCover made = make_cover(c, store::CoverKind::Standalone);
  if (!made.result) return;
  const BalanceResult& result = *made.result;
  r.cpu_seconds = result.cpu_seconds;
  r.cubes = result.cubes;
  r.rule_draws = result.summary.rule_draws.size();
  r.split_inputs = result.summary.split_inputs;
  r.care_positions = result.summary.care_positions;
  r.passes = result.summary.reports;
  r.cover_bytes = made.bytes;
  r.layout_bytes = made.layout.bytes;
  r.layout_version = made.layout.version;
  c.figures.done = true;
}

std::string Stage<BatchStage::Minimize>::summary(const StageFigures& f, const Results& r) {
  char line[200];
  std::snprintf(line, sizeof line,
                "%llu cubes, %llu bytes (probe layout %llu) in %.1f s, peak %.2f GB (expected %.2f);",
                (unsigned long long)r.cubes, (unsigned long long)r.cover_bytes, (unsigned long long)r.layout_bytes,
                f.seconds, double(f.peak_bytes) / 1e9, double(r.expected_peak_bytes) / 1e9);
  std::string out = line;
  for (const logic::PassReport& p : r.passes) {
    std::snprintf(line, sizeof line, " %s %.0f s", p.pass.c_str(), p.seconds);
    out += line;
  }
  return out;
}

}  // namespace egtmin::run
