// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/pipeline_bench.hpp"

#include <algorithm>
#include <map>

#include "logic/pass_sequence.hpp"
#include "run/batch_run.hpp"
#include "run/run_plan.hpp"

namespace egtmin::bench {

std::vector<Balance> default_pipeline_sample() {
  std::vector<Balance> out;
  for (const char* name : {"KBBNvK", "KRNvKR", "KRPvKR", "KBPPvK"}) out.push_back(*Balance::parse(name));
  return out;
}

std::vector<ProjectedStage> project(const std::vector<PipelineStage>& stages, int pieces) {
  // Seconds and slots of the sample, by stage and kind.
  struct Sum {
    double seconds = 0;
    uint64_t slots = 0;
    std::vector<Balance> from;
  };
  std::map<std::pair<run::BatchStage, BalanceKind>, Sum> sample;
  for (const PipelineStage& s : stages) {
    Sum& sum = sample[{s.stage, BalanceKind::of(s.balance)}];
    sum.seconds += s.figures.seconds;
    sum.slots += s.slots;
    sum.from.push_back(s.balance);
  }
  std::vector<ProjectedStage> out;
  for (run::BatchStage stage : run::kAllBatchStages)
    for (bool pawns : {false, true})
      for (bool lone_king : {true, false}) {
        const BalanceKind kind{pawns, lone_king};
        // The nearest kind the sample has: the other shape first, then the other pawns.
        const Sum* rate = nullptr;
        for (const BalanceKind k :
             {kind, BalanceKind{pawns, !lone_king}, BalanceKind{!pawns, lone_king}, BalanceKind{!pawns, !lone_king}})
          if (auto it = sample.find({stage, k}); it != sample.end() && it->second.slots > 0) {
            rate = &it->second;
            break;
          }
        if (!rate) continue;
        ProjectedStage p;
        p.stage = stage;
        p.kind = kind;
        p.seconds_per_slot = rate->seconds / double(rate->slots);
        p.from = rate->from;
        for (const Balance& b : Balance::all_up_to(pieces))
          if (b.pieces() == pieces && BalanceKind::of(b) == kind) {
            ++p.balances;
            p.slots += run::table_slots(b);
          }
        p.seconds = p.seconds_per_slot * double(p.slots);
        if (p.balances > 0) out.push_back(std::move(p));
      }
  return out;
}

Result<PipelineReport> run_pipeline_bench(const PipelineRequest& request, const Progress& progress) {
  PipelineReport report;
  report.sample = request.sample.empty() ? default_pipeline_sample() : request.sample;
  report.project_pieces = request.project_pieces;
  run::BatchRequest batch;
  batch.balances = report.sample;
  batch.data_dir = request.data_dir;
  batch.syzygy_dir = request.syzygy_dir;
  batch.threads = request.threads;
  batch.passes = logic::default_passes();
  batch.covers = run::CoverSet::CaptureResolved;
  std::map<std::pair<Balance, run::BatchStage>, bool> ran;
  run::BatchEvents events;
  events.stage_done = [&](const run::BatchRecord& r, run::BatchStage s, bool skipped) {
    ran[{r.balance, s}] = !skipped;
  };
  auto records = run::run_batch(batch, events, progress);
  if (!records) return records.error();
  for (const run::BatchRecord& r : *records) {
    if (std::find(report.sample.begin(), report.sample.end(), r.balance) == report.sample.end()) continue;
    if (!r.error.empty()) report.errors.push_back(r.balance.name() + ": " + r.error);
    for (run::BatchStage s : run::kAllBatchStages) {
      if (!run::serves(run::part_of(s), batch.covers) || !r.stage(s).done) continue;
      // The Syzygy comparison is not part of making the set where Syzygy has no file.
      if (s == run::BatchStage::Verify) continue;
      PipelineStage st{r.balance, s, r.stage(s), ran[{r.balance, s}], run::table_slots(r.balance)};
      if (st.figures.peak_bytes > report.largest_peak.figures.peak_bytes) report.largest_peak = st;
      report.stages.push_back(std::move(st));
    }
  }
  report.projection = project(report.stages, report.project_pieces);
  for (const ProjectedStage& p : report.projection) report.projected_seconds += p.seconds;
  return report;
}

}  // namespace egtmin::bench
